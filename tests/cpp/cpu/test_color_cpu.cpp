// The colour and intensity operations of the CPU backend on sub-image views (padded pitch,
// offset): the same results as on contiguous images, and the poisoned bytes around the
// destination view left untouched. Each op's own tests are in test_<op>_cpu.cpp.
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/test_support.hpp"
#include "texcv/color.hpp"

namespace texcv {
namespace {

// Every op gives the same result on a sub-image view (padded pitch, offset) as on a contiguous
// image, and leaves the poisoned bytes around the destination view alone.
TEST(ColorCpu, SubImageViewsMatchContiguous) {
  using Op = std::function<void(const ImageView&, const ImageView&)>;
  struct Case {
    const char* name;
    ElemType st, dt;
    int sch, dch;
    Op op;
  };
  std::vector<Case> cases;
  for (ElemType t : {ElemType::u8, ElemType::u16, ElemType::f32}) {
    cases.push_back(
        {"rgb2gray", t, t, 3, 1, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::rgb2gray); }});
    cases.push_back(
        {"bgra2gray", t, t, 4, 1, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::bgra2gray); }});
    cases.push_back(
        {"gray2rgba", t, t, 1, 4, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::gray2rgba); }});
    cases.push_back({"yuv709l", t, t, 3, 3,
                     [](auto& s, auto& d) { cvt_color(s, d, ColorCode::rgb2yuv_bt709_limited); }});
    cases.push_back({"yuv2rgb", t, t, 3, 3,
                     [](auto& s, auto& d) { cvt_color(s, d, ColorCode::yuv2rgb_bt601); }});
    if (t != ElemType::u16) {
      cases.push_back(
          {"hsv", t, t, 3, 3, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::rgb2hsv); }});
      cases.push_back(
          {"hsv2bgr", t, t, 3, 3, [](auto& s, auto& d) { cvt_color(s, d, ColorCode::hsv2bgr); }});
    }
    for (int ch : {1, 3, 4}) {
      cases.push_back({"gamma", t, t, ch, ch, [](auto& s, auto& d) { gamma(s, d, 0.7); }});
      cases.push_back({"normalize", t, t, ch, ch, [](auto& s, auto& d) { normalize(s, d, {}); }});
      cases.push_back({"mean_std", t, t, ch, ch, [](auto& s, auto& d) {
                         NormalizeParams p;
                         p.mode = NormalizeMode::mean_std;
                         p.mean = 100;
                         p.std = 20;
                         normalize(s, d, p);
                       }});
      cases.push_back({"threshold", t, t, ch, ch,
                       [](auto& s, auto& d) { threshold(s, d, 0.4, 9, ThresholdType::tozero); }});
      cases.push_back(
          {"convert", t, ElemType::u8, ch, ch, [](auto& s, auto& d) { convert(s, d, 0.5, 3); }});
      cases.push_back(
          {"convert_f32", t, ElemType::f32, ch, ch, [](auto& s, auto& d) { convert(s, d, 2, 0); }});
    }
  }
  cases.push_back({"equalize", ElemType::u8, ElemType::u8, 1, 1,
                   [](auto& s, auto& d) { equalize_hist(s, d); }});
  cases.push_back({"clahe", ElemType::u8, ElemType::u8, 1, 1, [](auto& s, auto& d) {
                     clahe(s, d, {2.0, 3, 5});
                   }});
  cases.push_back({"clahe", ElemType::u16, ElemType::u16, 1, 1, [](auto& s, auto& d) {
                     clahe(s, d, {2.0, 3, 5});
                   }});
  cases.push_back({"otsu", ElemType::u8, ElemType::u8, 1, 1,
                   [](auto& s, auto& d) { threshold(s, d, 0, 255, ThresholdType::otsu); }});
  for (const Case& k : cases)
    for (auto [w, h] : {std::pair{23, 17}, std::pair{61, 9}}) {
      SCOPED_TRACE(std::string(k.name) + " " + to_string(k.st) + " x" + std::to_string(k.sch) +
                   " " + std::to_string(w) + "x" + std::to_string(h));
      const Image a = test::random_image(w, h, k.sch, k.st, 17);
      Image ref(w, h, k.dch, k.dt);
      k.op(a.view(), ref.view());
      Image so, dout;
      const ImageView sv = test::padded_view(so, w, h, k.sch, k.st, 3, 2, 1);
      copy(a.view(), sv);
      const ImageView dv = test::padded_view(dout, w, h, k.dch, k.dt, 5, 1, 2);
      Image before = dout.clone();
      k.op(sv, dv);
      EXPECT_EQ(test::compare(dv, ref).count, 0);
      // Bytes outside the destination view are unchanged: copy the view into the snapshot and
      // compare every row of the allocation.
      copy(dv, before.view().roi({1, 2, w, h}));
      const std::size_t row = dout.view().row_bytes();
      for (int y = 0; y < dout.height(); ++y)
        ASSERT_EQ(std::memcmp(before.view().row<unsigned char>(y),
                              dout.view().row<unsigned char>(y), row),
                  0)
            << "row " << y;
    }
}

}  // namespace
}  // namespace texcv
