#include <limits.h>
