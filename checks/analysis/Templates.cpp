#include "checks/analysis/Templates.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace warpfix {

bool isInstantiated(const FunctionDecl &F) {
  if (const FunctionTemplateDecl *T = F.getDescribedFunctionTemplate())
    if (!T->specializations().empty())
      return true;
  for (const DeclContext *DC = F.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *Record = dyn_cast<CXXRecordDecl>(DC))
      if (const ClassTemplateDecl *T = Record->getDescribedClassTemplate())
        if (!T->specializations().empty())
          return true;
  return false;
}

} // namespace warpfix
