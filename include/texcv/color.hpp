// Colour and intensity operations: cvt_color, gamma, invert, normalize, convert, threshold,
// histogram, equalize_hist, clahe. Semantics follow OpenCV 4.6 where OpenCV has the operation
// (docs/ops/color.md gives every formula and the measured agreement with OpenCV).
//
// Every operation reads src and writes dst (dst already sized; outputs may not overlap inputs).
// Both views must be in the same location.
//
// BACKENDS: the CPU backend and the CUDA backend implement every operation (device views run on
// the given stream) with the same results, except f32 gamma (within 1 ulp) and f32 normalize
// mean_std (within a stated bound): docs/ops/color.md. On device views, histogram returns host
// vectors and, like normalize, equalize_hist and threshold(otsu), reads a reduction or histogram
// back to the host, which synchronizes the stream.
//
// Supported element types and channel counts (src -> dst):
// | op            | u8 | u16 | f32 | channels                                               |
// | cvt_color     | x  | x   | x   | per code (ops/cvt_color.hpp); HSV codes: u8 and f32 only |
// | gamma         | x  | x   | x   | 1, 3, 4 (alpha is transformed too)                     |
// | invert        | x  | x   | x   | 1, 3, 4; dst same type and channels (exact)            |
// | normalize     | x  | x   | x   | 1, 3, 4; dst same type and channels                    |
// | convert       | x  | x   | x   | 1, 3, 4; dst any type, same channels                   |
// | threshold     | x  | x   | x   | 1, 3, 4 (per element); otsu: u8 1-channel              |
// | histogram     | x  | x   | x   | 1, 3, 4 (one histogram per channel)                    |
// | equalize_hist | x  |     |     | 1                                                      |
// | clahe         | x  | x   |     | 1                                                      |
#pragma once

#include "texcv/ops/clahe.hpp"
#include "texcv/ops/convert.hpp"
#include "texcv/ops/cvt_color.hpp"
#include "texcv/ops/equalize_hist.hpp"
#include "texcv/ops/gamma.hpp"
#include "texcv/ops/histogram.hpp"
#include "texcv/ops/invert.hpp"
#include "texcv/ops/normalize.hpp"
#include "texcv/ops/threshold.hpp"
