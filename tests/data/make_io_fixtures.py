#!/usr/bin/env python3
"""Writes the small PNG and TIFF fixtures of tests/cpp/io/test_io_fixtures.cpp.

Plain Python (struct + zlib), independent of libpng and libtiff, so the decoders are checked
against files they did not write. Each image's pixels follow a formula that the C++ test
evaluates again (keep the two in step). Run from anywhere: python3 tests/data/make_io_fixtures.py
"""
import os
import struct
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "io")

# ------------------------------------------------------------------ PNG


def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    """Samples of one row (already flattened) to bytes, MSB first for depth < 8."""
    if depth == 8:
        return bytes(samples)
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    out, acc, nbits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        nbits += depth
        if nbits == 8:
            out.append(acc)
            acc, nbits = 0, 0
    if nbits:
        out.append(acc << (8 - nbits))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def write_png(name, w, h, depth, color, pixel, plte=None, trns=None, interlace=False):
    """pixel(x, y) -> tuple of file samples (palette index, gray, gray+alpha, rgb...)."""
    raw = bytearray()
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        xs = list(range(x0, w, dx))
        ys = list(range(y0, h, dy))
        if not xs or not ys:
            continue
        for y in ys:
            samples = [s for x in xs for s in pixel(x, y)]
            raw += b"\x00" + pack_row(samples, depth)
    data = b"\x89PNG\r\n\x1a\n"
    data += png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, 1 if interlace else 0))
    if plte is not None:
        data += png_chunk(b"PLTE", b"".join(bytes(c) for c in plte))
    if trns is not None:
        data += png_chunk(b"tRNS", trns)
    data += png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    data += png_chunk(b"IEND", b"")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


PALETTE = [(i * 50, 255 - i * 40, i * 17 + 3) for i in range(5)]


def make_pngs():
    write_png("gray1.png", 13, 7, 1, 0, lambda x, y: ((x + y) % 2,))
    write_png("gray2.png", 13, 7, 2, 0, lambda x, y: ((x + 2 * y) % 4,))
    write_png("gray8_trns.png", 13, 7, 8, 0, lambda x, y: ((x * 40 + y) % 256,),
              trns=struct.pack(">H", 0))
    write_png("pal4_trns.png", 13, 7, 4, 3, lambda x, y: ((x + y) % 5,), plte=PALETTE,
              trns=bytes([0, 128]))
    write_png("pal8.png", 13, 7, 8, 3, lambda x, y: ((x * 3 + y) % 5,), plte=PALETTE)
    write_png("ga8.png", 13, 7, 8, 4, lambda x, y: ((x * 19 + y * 3) % 256, (x * 5 + y * 31) % 256))
    write_png("ga16.png", 13, 7, 16, 4,
              lambda x, y: ((x * 4099 + y * 257) % 65536, (x * 31 + y * 7919) % 65536))
    write_png("rgb16_adam7.png", 13, 7, 16, 2,
              lambda x, y: ((x * 1000 + y * 7) % 65536, (x * 3 + y * 2000) % 65536,
                            (x * y * 97) % 65536), interlace=True)


# ------------------------------------------------------------------ TIFF

SHORT, LONG = 3, 4


def write_tiff(name, w, h, spp, bps, fmt, pixel, photometric, sample_format=1, planar=1,
               extra=None, tile=None, rows_per_strip=None, bo="<"):
    """pixel(x, y) -> tuple of spp samples; fmt is the struct code of one sample."""

    def pack(vals):
        return struct.pack(bo + fmt * len(vals), *vals)

    blocks = []  # (bytes) strips or tiles, in order
    if tile:
        tw, th = tile
        for ty in range(0, h, th):
            for tx in range(0, w, tw):
                vals = []
                for y in range(ty, ty + th):
                    for x in range(tx, tx + tw):
                        vals += pixel(x, y) if (x < w and y < h) else (0,) * spp
                blocks.append(pack(vals))
    elif planar == 2:
        for c in range(spp):
            blocks.append(pack([pixel(x, y)[c] for y in range(h) for x in range(w)]))
        rows_per_strip = h
    else:
        rps = rows_per_strip or h
        for y0 in range(0, h, rps):
            blocks.append(pack([s for y in range(y0, min(h, y0 + rps)) for x in range(w)
                                for s in pixel(x, y)]))
        rows_per_strip = rps

    offsets, pos, body = [], 8, b""
    for b in blocks:
        offsets.append(pos)
        body += b
        pos += len(b)
    if pos % 2:
        body += b"\x00"
        pos += 1
    tags = [(256, LONG, [w]), (257, LONG, [h]), (258, SHORT, [bps] * spp), (259, SHORT, [1]),
            (262, SHORT, [photometric]), (277, SHORT, [spp]), (284, SHORT, [planar]),
            (339, SHORT, [sample_format] * spp)]
    if tile:
        tags += [(322, LONG, [tile[0]]), (323, LONG, [tile[1]]), (324, LONG, offsets),
                 (325, LONG, [len(b) for b in blocks])]
    else:
        tags += [(273, LONG, offsets), (278, LONG, [rows_per_strip]),
                 (279, LONG, [len(b) for b in blocks])]
    if extra is not None:
        tags.append((338, SHORT, extra))
    tags.sort()
    ifd_pos = pos
    ifd_size = 2 + 12 * len(tags) + 4
    extra_pos = ifd_pos + ifd_size
    ifd, extra_data = struct.pack(bo + "H", len(tags)), b""
    for tag, typ, vals in tags:
        code = "H" if typ == SHORT else "I"
        data = struct.pack(bo + code * len(vals), *vals)
        if len(data) <= 4:
            ifd += struct.pack(bo + "HHI", tag, typ, len(vals)) + data.ljust(4, b"\x00")
        else:
            ifd += struct.pack(bo + "HHII", tag, typ, len(vals), extra_pos + len(extra_data))
            extra_data += data
    ifd += struct.pack(bo + "I", 0)
    magic = b"II*\x00" if bo == "<" else b"MM\x00*"
    head = magic + struct.pack(bo + "I", ifd_pos)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(head + body + ifd + extra_data)


def make_tiffs():
    write_tiff("tiled_rgb16.tif", 37, 21, 3, 16, "H",
               lambda x, y: tuple((x * 1741 + y * 613 + c * 20011) % 65536 for c in range(3)),
               photometric=2, tile=(16, 16))
    write_tiff("tiled_gray_f32.tif", 37, 21, 1, 32, "f", lambda x, y: ((x - 2 * y) * 0.25,),
               photometric=1, sample_format=3, tile=(16, 16))
    write_tiff("strip_ga8.tif", 19, 5, 2, 8, "B",
               lambda x, y: ((x * 11 + y * 29) % 256, (x * 3 + y * 50) % 256), photometric=1,
               extra=[2], rows_per_strip=2)
    write_tiff("strip_gray16_be.tif", 11, 6, 1, 16, "H", lambda x, y: ((x * 5003 + y * 17) % 65536,),
               photometric=1, rows_per_strip=4, bo=">")
    # Valid files of kinds texcv refuses (Unsupported).
    write_tiff("miniswhite8.tif", 8, 4, 1, 8, "B", lambda x, y: (x + y,), photometric=0)
    write_tiff("int16.tif", 8, 4, 1, 16, "h", lambda x, y: (x - y,), photometric=1,
               sample_format=2)
    write_tiff("planar_rgb8.tif", 8, 4, 3, 8, "B", lambda x, y: (x, y, x + y), photometric=2,
               planar=2)


if __name__ == "__main__":
    os.makedirs(HERE, exist_ok=True)
    make_pngs()
    make_tiffs()
