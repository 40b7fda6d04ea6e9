/* Writes small JPEG seeds for tests/fuzz/make_corpus.py with the system's libjpeg(-turbo):
 * baseline 4:2:0, 4:4:4 and 4:2:2, grey, progressive, restart intervals, arithmetic coding (when
 * the library has it), optimized Huffman tables, odd sizes. Pixels are a smooth gradient plus a
 * checkerboard, generated here (no third-party content).
 *   cc tests/fuzz/make_jpeg_seeds.c -ljpeg -o /tmp/mj && /tmp/mj OUT_FOLDER */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

static void write_jpeg(const char* dir, const char* name, int w, int h, int comps, int quality,
                       int h_samp, int v_samp, int progressive, int restart, int arith, int opt) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE* f = fopen(path, "wb");
  if (!f) {
    perror(path);
    exit(1);
  }
  struct jpeg_compress_struct c;
  struct jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  jpeg_stdio_dest(&c, f);
  c.image_width = (JDIMENSION)w;
  c.image_height = (JDIMENSION)h;
  c.input_components = comps;
  c.in_color_space = comps == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, quality, TRUE);
  if (comps == 3) {
    c.comp_info[0].h_samp_factor = h_samp;
    c.comp_info[0].v_samp_factor = v_samp;
  }
  if (progressive) jpeg_simple_progression(&c);
  c.restart_interval = (unsigned)restart;
#ifdef C_ARITH_CODING_SUPPORTED
  c.arith_code = arith ? TRUE : FALSE;
#else
  (void)arith;
#endif
  c.optimize_coding = opt ? TRUE : FALSE;
  jpeg_start_compress(&c, TRUE);
  unsigned char* row = malloc((size_t)w * (size_t)comps);
  while (c.next_scanline < c.image_height) {
    const int y = (int)c.next_scanline;
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < comps; ++k)
        row[x * comps + k] =
            (unsigned char)((x * 255 / (w > 1 ? w - 1 : 1) + k * 80 + (((x / 4) ^ (y / 4)) & 1) * 60 +
                             y * 3) & 0xFF);
    JSAMPROW r = row;
    jpeg_write_scanlines(&c, &r, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  free(row);
  fclose(f);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT_FOLDER\n", argv[0]);
    return 2;
  }
  const char* d = argv[1];
  write_jpeg(d, "rgb420_q90.jpg", 32, 24, 3, 90, 2, 2, 0, 0, 0, 0);
  write_jpeg(d, "rgb444_q75.jpg", 17, 13, 3, 75, 1, 1, 0, 0, 0, 0);
  write_jpeg(d, "rgb422_q50.jpg", 24, 16, 3, 50, 2, 1, 0, 0, 0, 1);
  write_jpeg(d, "gray_q85.jpg", 16, 16, 1, 85, 1, 1, 0, 0, 0, 0);
  write_jpeg(d, "gray_1x1.jpg", 1, 1, 1, 95, 1, 1, 0, 0, 0, 0);
  write_jpeg(d, "progressive420.jpg", 32, 32, 3, 80, 2, 2, 1, 0, 0, 0);
  write_jpeg(d, "progressive_gray.jpg", 20, 12, 1, 80, 1, 1, 1, 0, 0, 0);
  write_jpeg(d, "restart420.jpg", 48, 16, 3, 90, 2, 2, 0, 1, 0, 0);
  write_jpeg(d, "arith420.jpg", 24, 24, 3, 90, 2, 2, 0, 0, 1, 0);
  write_jpeg(d, "arith_progressive.jpg", 16, 16, 3, 90, 2, 2, 1, 0, 1, 0);
  return 0;
}
