// Forced into every parse by warpfix. Clang 19's CUDA runtime wrapper brings
// in CUDA's texture functions but not its surface functions (surf2Dwrite,
// surf2DLayeredread, ...), which nvcc declares in every unit; a kernel that
// writes a surface would not parse, and its warp code could not be fixed.
// These are CUDA's own declarations. The handler that would emit their PTX
// expands to nothing: clang's wrapper implements it for textures only, and
// nothing is ever compiled from this parse.
#pragma once
#pragma clang system_header
#if defined(__CUDA_ARCH__) && !defined(__SURFACE_INDIRECT_FUNCTIONS_H__) &&  \
    __has_include(<surface_indirect_functions.h>)
#pragma push_macro("__nv_tex_surf_handler")
#undef __nv_tex_surf_handler
#define __nv_tex_surf_handler(...) ((void)0)
#include <surface_indirect_functions.h>
#pragma pop_macro("__nv_tex_surf_handler")
#endif
