// Helpers shared by the registry tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "common/test_support.hpp"
#include "texcv/texcv.hpp"

namespace texcv::test {

// The message of the Error that f throws (and that its code is InvalidArgument).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no texcv::Error thrown";
  return {};
}

// got and want have the same shape and identical elements.
inline void expect_same(const Image& got, const Image& want) {
  ASSERT_EQ(got.width(), want.width());
  ASSERT_EQ(got.height(), want.height());
  ASSERT_EQ(got.channels(), want.channels());
  ASSERT_EQ(got.type(), want.type());
  const auto d = compare(got.view(), want.view());
  EXPECT_EQ(d.count, 0) << d.describe();
}

}  // namespace texcv::test
