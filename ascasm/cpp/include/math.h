// ascasm header stub: <math.h>, the same names as <cmath>.
#pragma once
#include <cmath>
