// ascasm header stub: size_t and friends (kernels are parsed without system headers).
#pragma once
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#ifndef NULL
#define NULL nullptr
#endif
