#include "vk/spirv.h"

#include <string>
#include <vector>

#include "core/error.h"

namespace cloth::shaders {
namespace {

std::vector<std::span<const Embedded>>& extraTables() {
    static std::vector<std::span<const Embedded>> tables;  // filled before main, read after
    return tables;
}

const Embedded* find(std::span<const Embedded> table, std::string_view name) {
    for (const Embedded& e : table)
        if (e.name == name) return &e;
    return nullptr;
}

}  // namespace

namespace detail {
bool add(std::span<const Embedded> table) {
    extraTables().push_back(table);
    return true;
}
}  // namespace detail

std::span<const std::uint32_t> spirv(std::string_view name) {
    if (const Embedded* e = find(detail::builtIn(), name)) return e->words;
    for (std::span<const Embedded> table : extraTables())
        if (const Embedded* e = find(table, name)) return e->words;
    throw Error("no embedded shader named '" + std::string(name) + "'");
}

}  // namespace cloth::shaders
