// An empty stand-in for a host-only header: the host code that uses it then has errors, which stop
// no translation of the vector code (docs/frontend.md, "Header stubs").
#pragma once
