/* Minimal stand-in: the single-precision functions clang's CUDA wrapper
   forwards to. */
#pragma once
float rsqrtf(float);
float rcbrtf(float);
float sinpif(float);
float cospif(float);
void sincospif(float, float *, float *);
float erfcinvf(float);
float normcdfinvf(float);
float normcdff(float);
float erfcxf(float);
