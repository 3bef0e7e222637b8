// tinygltf's implementation, compiled here once (its defines: src/app/CMakeLists.txt).
#define TINYGLTF_IMPLEMENTATION
#include <tiny_gltf.h>
