// tinyobjloader's implementation, compiled with the project (and so with its sanitizers, which
// the fuzzer needs to see inside it) rather than linked from the prebuilt library. Its header
// is the Debian package's; warnings in it are not ours to fix (CMakeLists.txt silences them).
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>
