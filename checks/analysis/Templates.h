// What the checks need to know about templates as written.
#ifndef WARPFIX_CHECKS_ANALYSIS_TEMPLATES_H
#define WARPFIX_CHECKS_ANALYSIS_TEMPLATES_H

#include "clang/AST/Decl.h"

namespace warpfix {

/// True when some instantiation of the template around F (a function
/// template, or a member of a class template) exists in the translation
/// unit: its statements are then analysed in each instantiation, each with
/// its own copy.
bool isInstantiated(const clang::FunctionDecl &F);

} // namespace warpfix

#endif
