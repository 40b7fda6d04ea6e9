/* Writes tests/data/io/cmyk.jpg: a 16x8 CMYK JPEG (Adobe marker), for the "CMYK -> Unsupported"
 * test. Build and run from the repository root:
 *   cc tests/data/make_cmyk_jpeg.c -ljpeg -o /tmp/make_cmyk_jpeg && /tmp/make_cmyk_jpeg */
#include <stdio.h>
#include <jpeglib.h>

int main(void) {
  FILE* f = fopen("tests/data/io/cmyk.jpg", "wb");
  if (!f) return 1;
  struct jpeg_compress_struct c;
  struct jpeg_error_mgr e;
  c.err = jpeg_std_error(&e);
  jpeg_create_compress(&c);
  jpeg_stdio_dest(&c, f);
  c.image_width = 16;
  c.image_height = 8;
  c.input_components = 4;
  c.in_color_space = JCS_CMYK;
  jpeg_set_defaults(&c);
  jpeg_set_colorspace(&c, JCS_CMYK);
  jpeg_start_compress(&c, TRUE);
  unsigned char row[16 * 4];
  while (c.next_scanline < c.image_height) {
    for (int i = 0; i < 16 * 4; ++i) row[i] = (unsigned char)(i * 4 + c.next_scanline * 9);
    JSAMPROW r = row;
    jpeg_write_scanlines(&c, &r, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  return fclose(f) == 0 ? 0 : 1;
}
