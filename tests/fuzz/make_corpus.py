#!/usr/bin/env python3
"""Writes the seed corpus of the libFuzzer targets: tests/fuzz/corpus/<target>/.

Every file is this project's own: small images generated here (PNG and TIFF with struct + zlib,
JPEG with the system's libjpeg through make_jpeg_seeds.c, compiled with `cc`), the codec test
fixtures of tests/data/io (made by tests/data/make_io_fixtures.py and make_cmyk_jpeg.c), and
damaged copies of them: truncated, a flipped byte, a bad CRC, header claims that are too large.
Pipelines and --list files are written out below. Findings of the fuzzers are kept apart, in
corpus/<target>/finding-*, and are not touched by this script (it only writes seed-* files).

Run from anywhere: python3 tests/fuzz/make_corpus.py   (needs cc and libjpeg's header)
"""
import glob
import os
import random
import struct
import subprocess
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus")
rng = random.Random(18)  # the same corpus on every run


def out_dir(target):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    for old in glob.glob(os.path.join(d, "seed-*")):
        os.remove(old)
    return d


def put(d, name, data):
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def damaged(name, data, header_len):
    """Damaged copies: cut at a few points, one byte flipped in the header and in the data."""
    out = {}
    for frac in (0.1, 0.5, 0.9):
        cut = max(1, int(len(data) * frac))
        out[f"{name}.cut{cut}"] = data[:cut]
    for where, lo, hi in (("head", 0, header_len), ("body", header_len, len(data))):
        if hi > lo:
            i = rng.randrange(lo, hi)
            b = bytearray(data)
            b[i] ^= 1 << rng.randrange(8)
            out[f"{name}.flip-{where}{i}"] = bytes(b)
    return out


# ------------------------------------------------------------------ PNG


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(w, h, depth, color, rows=None, interlace=0, extra=b"", compress=True):
    """A PNG with filter type 0 rows; rows: the raw scanlines without filter bytes."""
    spp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    row_bytes = (w * spp * depth + 7) // 8
    if rows is None:
        rows = [bytes((x * 7 + y * 13) & 0xFF for x in range(row_bytes)) for y in range(h)]
    raw = b"".join(b"\0" + r for r in rows)
    ihdr = struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, interlace)
    idat = zlib.compress(raw, 9) if compress else raw
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + extra + png_chunk(b"IDAT", idat) +
            png_chunk(b"IEND", b""))


def make_png():
    d = out_dir("fuzz_png")
    plte = png_chunk(b"PLTE", bytes(range(48)))
    seeds = {
        "gray8.png": png(16, 16, 8, 0),
        "rgb8.png": png(12, 9, 8, 2),
        "rgba8.png": png(8, 8, 8, 6),
        "gray16.png": png(8, 6, 16, 0),
        "ga8.png": png(8, 8, 8, 4),
        "gray1.png": png(13, 5, 1, 0),
        "pal4_trns.png": png(9, 7, 4, 3, extra=plte + png_chunk(b"tRNS", b"\x00\x80")),
        "gamma_text.png": png(4, 4, 8, 2, extra=png_chunk(b"gAMA", struct.pack(">I", 45455)) +
                              png_chunk(b"tEXt", b"Comment\0texcv fuzz seed")),
        "idat_uncompressed.png": png(4, 4, 8, 0, compress=False),
        # Adam7 rows are not laid out as plain rows: libpng then finds too little or too much data.
        "rgb16_adam7_raw.png": png(9, 9, 16, 2, interlace=1),
        "huge_claim.png": png(1, 1, 8, 0)[:16] + struct.pack(">II", 100000, 100000) +
                          png(1, 1, 8, 0)[24:],
        "chunk_len_2g.png": b"\x89PNG\r\n\x1a\n" + png(1, 1, 8, 0)[8:33] +
                            struct.pack(">I", 0x7FFFFFF0) + b"zTXt" + b"k\0\0" + b"x" * 16,
    }
    # A correct Adam7 file: one 8x8 pixel per pass image is not worth the code; the fixture has it.
    for f in sorted(glob.glob(os.path.join(ROOT, "tests/data/io/*.png"))):
        seeds[os.path.basename(f)] = open(f, "rb").read()
    for name, data in list(seeds.items()):
        if name in ("gray8.png", "rgb8.png", "pal4_trns.png", "rgb16_adam7.png"):
            seeds.update(damaged(name, data, 33))
    # A bad CRC on IHDR and on IDAT.
    good = seeds["rgb8.png"]
    seeds["rgb8.png.ihdr-crc"] = good[:29] + b"\0\0\0\0" + good[33:]
    seeds["rgb8.png.idat-crc"] = good[:-16] + b"\0\0\0\0" + good[-12:]
    for name, data in seeds.items():
        put(d, name, data)


# ------------------------------------------------------------------ TIFF


def tiff(w, h, spp, bps, sample_format=1, photometric=None, tile=None, planar=1,
         compression=1, pages=1, big_endian=False, claim=None):
    """A classic TIFF; strips of one row each, or tiles of tile x tile."""
    e = ">" if big_endian else "<"
    if photometric is None:
        photometric = 1 if spp < 3 else 2
    fmt = {8: "B", 16: "H", 32: "f" if sample_format == 3 else "I"}[bps]

    def pixels(n):
        vals = [((i * 37) % 251) / (251.0 if fmt == "f" else 1) for i in range(n)]
        if fmt != "f":
            vals = [int(v) * (257 if bps == 16 else 1) for v in vals]
        return struct.pack(e + fmt * n, *vals)

    out = bytearray(b"MM\0*" if big_endian else b"II*\0") + b"\0\0\0\0"
    first_ifd_at = 4
    prev_next = first_ifd_at
    for _ in range(pages):
        if tile:
            tx, ty = (w + tile - 1) // tile, (h + tile - 1) // tile
            pieces = [pixels(tile * tile * spp) for _ in range(tx * ty)]
        elif planar == 2:
            pieces = [pixels(w * spp // spp) for _ in range(h * spp)]
        else:
            pieces = [pixels(w * spp) for _ in range(h)]
        if compression == 8:
            pieces = [zlib.compress(p) for p in pieces]
        offsets = []
        for p in pieces:
            offsets.append(len(out))
            out += p
        counts = [len(p) for p in pieces]
        if len(out) % 2:
            out += b"\0"
        arrays_at = len(out)
        out += struct.pack(e + "I" * len(offsets), *offsets)
        counts_at = len(out)
        out += struct.pack(e + "I" * len(counts), *counts)
        bps_at = len(out)
        out += struct.pack(e + "H" * spp, *([bps] * spp))
        cw, ch = claim if claim else (w, h)
        tags = [(256, 4, 1, cw), (257, 4, 1, ch), (258, 3, spp, bps_at if spp > 2 else bps),
                (259, 3, 1, compression), (262, 3, 1, photometric)]
        if tile:
            tags += [(322, 3, 1, tile), (323, 3, 1, tile), (324, 4, len(offsets), arrays_at),
                     (325, 4, len(counts), counts_at), (277, 3, 1, spp), (284, 3, 1, planar),
                     (339, 3, 1, sample_format)]
        else:
            tags += [(273, 4, len(offsets), arrays_at), (277, 3, 1, spp), (278, 4, 1, 1),
                     (279, 4, len(counts), counts_at), (284, 3, 1, planar),
                     (339, 3, 1, sample_format)]
        if spp in (2, 4):
            tags.append((338, 3, 1, 2))  # ExtraSamples: unassociated alpha
        tags.sort()
        ifd_at = len(out)
        struct.pack_into(e + "I", out, prev_next, ifd_at)
        out += struct.pack(e + "H", len(tags))
        for tag, typ, count, value in tags:
            if len(offsets) == 1 and tag in (273, 279, 324, 325):  # one value: inline
                value = offsets[0] if tag in (273, 324) else counts[0]
            if typ == 3 and count == 1:
                out += struct.pack(e + "HHIHH", tag, typ, count, value, 0)
            elif typ == 3 and count == 2:
                out += struct.pack(e + "HHIHH", tag, typ, count, bps, bps)
            else:
                out += struct.pack(e + "HHII", tag, typ, count, value)
        prev_next = len(out)
        out += b"\0\0\0\0"
    return bytes(out)


def make_tiff():
    d = out_dir("fuzz_tiff")
    seeds = {
        "gray8.tif": tiff(8, 6, 1, 8),
        "rgb8.tif": tiff(7, 5, 3, 8),
        "rgba16_be.tif": tiff(5, 4, 4, 16, big_endian=True),
        "gray_f32.tif": tiff(6, 6, 1, 32, sample_format=3),
        "rgb8_tiled.tif": tiff(20, 18, 3, 8, tile=16),
        "gray16_deflate.tif": tiff(9, 7, 1, 16, compression=8),
        "rgb8_planar.tif": tiff(4, 3, 3, 8, planar=2),
        "gray8_3pages.tif": tiff(4, 4, 1, 8, pages=3),
        "ga8.tif": tiff(4, 4, 2, 8),
        "huge_claim.tif": tiff(2, 2, 1, 8, claim=(200000, 200000)),
    }
    for f in sorted(glob.glob(os.path.join(ROOT, "tests/data/io/*.tif"))):
        seeds[os.path.basename(f)] = open(f, "rb").read()
    for name in ("rgb8.tif", "rgb8_tiled.tif", "gray16_deflate.tif", "gray8_3pages.tif"):
        seeds.update(damaged(name, seeds[name], 8))
    for name, data in seeds.items():
        put(d, name, data)


# ------------------------------------------------------------------ JPEG


def make_jpeg():
    d = out_dir("fuzz_jpeg")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "make_jpeg_seeds")
        subprocess.run(["cc", "-O1", os.path.join(HERE, "make_jpeg_seeds.c"), "-ljpeg", "-o", exe],
                       check=True)
        subprocess.run([exe, tmp], check=True)
        seeds = {os.path.basename(f): open(f, "rb").read()
                 for f in sorted(glob.glob(os.path.join(tmp, "*.jpg")))}
    seeds["cmyk.jpg"] = open(os.path.join(ROOT, "tests/data/io/cmyk.jpg"), "rb").read()
    for name in ("rgb420_q90.jpg", "progressive420.jpg", "restart420.jpg", "gray_q85.jpg"):
        data = seeds[name]
        sos = data.find(b"\xff\xda")
        seeds.update(damaged(name, data, sos if sos > 0 else 20))
    # A frame header claiming 60000 x 60000 pixels, and one claiming 0 rows.
    base = seeds["rgb420_q90.jpg"]
    sof = base.find(b"\xff\xc0")
    seeds["huge_claim.jpg"] = base[:sof + 5] + struct.pack(">HH", 60000, 60000) + base[sof + 9:]
    seeds["zero_rows.jpg"] = base[:sof + 5] + struct.pack(">H", 0) + base[sof + 7:]
    seeds["no_eoi.jpg"] = base[:-2]
    for name, data in seeds.items():
        put(d, name, data)


# ------------------------------------------------------------------ text targets

PIPELINES = [
    "resize:scale=0.5", "resize:width=32,height=24,interp=area",
    "resize:fx=2,fy=0.5,interp=cubic,border=reflect", "resize:width=10,align_corners=true",
    "rotate:angle=30;resize:scale=0.5,interp=area", "rotate:angle=-90,expand=true,interp=nearest",
    "warp_affine:m=1|0|10|0|1|20", "warp_affine:m=0.5|0.1|0|0|1|0,inverse_map=true,width=10",
    "warp_perspective:m=1|0|0|0|1|0|0.001|0|1,border=wrap", "flip:code=both", "flip",
    "crop:x=2,y=3,width=10,height=5", "crop:x=60", "convolve:kernel=0|-1|0|-1|5|-1|0|-1|0",
    "convolve:kernel=1|2|3|4|5|6,kw=3,anchor_x=0", "separable_filter:row=1|2|1,column=1|0|-1",
    "gaussian_blur:sigma=2", "gaussian_blur:ksize=5,sigma=0", "box_filter:ksize=3",
    "sharpen", "unsharp_mask:sigma=1,amount=1.5", "sobel:dx=1,dy=0", "scharr:dx=0,dy=1",
    "laplacian:ksize=3", "erode:ksize=3,iterations=2", "dilate:ksize=5,shape=rect",
    "morphology:op=open,ksize=3", "median_blur:ksize=5", "bilateral_filter:d=5,sigma_color=20,"
    "sigma_space=5", "cvt_color:code=rgb2bgr", "gamma:gamma=2.2", "normalize:mode=minmax",
    "convert:type=f32,scale=0.00392156862745098", "threshold:thresh=128,maxval=255,type=binary",
    "threshold:type=otsu", "equalize_hist", "clahe:clip_limit=2,tiles_x=8,tiles_y=8",
    # Damaged and hostile text.
    "resize:scale=nan", "resize:scale=inf", "resize:width=99999999999999999999", "rotate:angle=",
    "rotate", ";;", "", " resize : scale = 0.5 ; ; flip ", "resize:scale=0.5,scale=2",
    "unknown_op", "resize:=1", "resize:scale", "resize:width=40000,height=40000",
    "warp_affine:m=0|0|0|0|0|0", "crop:x=-1", "convolve:kernel=" + "|".join(["1"] * 961),
    "resize:scale=1e-300", "resize:scale=0x10", "gamma:gamma=\u00bd", "resize:width=1\0",
]

LISTS = [
    b"a.png\nb.jpg\n", b"# comment\n  spaced.png  \r\n\n\nsub/dir/c.tif\r\n",
    b"/abs/path.png\n../outside.png\n./here.png\nsymdir/../x.png\n", b"\xff\xfe bad utf8.png\n",
    b"tab\there.png\nesc\x1b[31m.png\nc1\xc2\x9b.png\n", b"no newline at end.png",
    b"\r\n\r\n   \n#\n", b"a" * 300 + b".png\n", "\u00e9t\u00e9.png\n\u6f22\u5b57.jpg\n".encode(),
    b"nul\0inside.png\n",
]


def make_text():
    d = out_dir("fuzz_pipeline")
    for i, p in enumerate(PIPELINES):
        put(d, f"{i:02d}", p.encode())
    d = out_dir("fuzz_list")
    for i, p in enumerate(LISTS):
        put(d, f"{i:02d}", p)
    d = out_dir("fuzz_view_checks")
    for i in range(12):
        put(d, f"{i:02d}", bytes(rng.randrange(256) for _ in range(rng.randrange(16, 120))))


if __name__ == "__main__":
    make_png()
    make_tiff()
    make_jpeg()
    make_text()
    total = sum(os.path.getsize(f) for f in glob.glob(os.path.join(CORPUS, "*", "*")))
    print(f"corpus: {len(glob.glob(os.path.join(CORPUS, '*', '*')))} files, {total // 1024} KiB")
