// CUDA 13's toolkit no longer has device_functions_decls.h, which old code still includes. What
// it declared comes with cuda_runtime.h, or from warpfix_removed_apis.h for
// texture and surface references; this empty stand-in lets the parse go on,
// and the check cuda-removed-api reports the #include.
#pragma once
