// texcv: GPU image processing through CUDA texture objects, with an exact CPU backend.
#pragma once

#include "texcv/color.hpp"
#include "texcv/error.hpp"
#include "texcv/filters.hpp"
#include "texcv/geometry.hpp"
#include "texcv/image.hpp"
#include "texcv/io.hpp"
#include "texcv/morphology.hpp"
#include "texcv/pipeline.hpp"
#include "texcv/registry.hpp"
#include "texcv/runtime.hpp"
