// utf8proc: NFKD, case folding and mark stripping in one call, for the text search folds.
#include <utf8proc.h>
