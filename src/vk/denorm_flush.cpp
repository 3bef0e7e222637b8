#include "vk/denorm_flush.h"

#include "core/error.h"

namespace cloth::vk {

namespace {

constexpr std::uint32_t kMagic = 0x07230203u;
constexpr std::uint32_t kOpCapability = 17, kOpEntryPoint = 15, kOpExecutionMode = 16;
constexpr std::uint32_t kCapabilityDenormFlushToZero = 4465;
constexpr std::uint32_t kExecutionModeDenormFlushToZero = 4460;
constexpr std::size_t kHeaderWords = 5;

std::uint32_t instruction(std::uint32_t wordCount, std::uint32_t opcode) {
    return (wordCount << 16) | opcode;
}

}  // namespace

std::vector<std::uint32_t> withDenormFlushToZero(std::span<const std::uint32_t> words) {
    if (words.size() < kHeaderWords || words[0] != kMagic || (words[1] >> 16) != 1 ||
        ((words[1] >> 8) & 0xffu) < 4)
        throw Error("denormal flushing: not a SPIR-V 1.4+ module");
    // Walk the instructions once: capabilities, entry points, existing execution modes.
    std::vector<std::uint32_t> entries;
    std::size_t afterEntryPoints = 0;
    bool hasCapability = false;
    for (std::size_t i = kHeaderWords; i < words.size();) {
        const std::uint32_t count = words[i] >> 16, op = words[i] & 0xffffu;
        if (count == 0 || i + count > words.size())
            throw Error("denormal flushing: malformed SPIR-V instruction at word " +
                        std::to_string(i));
        if (op == kOpCapability && words[i + 1] == kCapabilityDenormFlushToZero)
            hasCapability = true;
        if (op == kOpEntryPoint) {
            entries.push_back(words[i + 2]);
            afterEntryPoints = i + count;
        }
        if (op == kOpExecutionMode && words[i + 2] == kExecutionModeDenormFlushToZero)
            return {words.begin(), words.end()};  // already flushes
        i += count;
    }
    if (entries.empty()) throw Error("denormal flushing: the SPIR-V module has no entry point");
    std::vector<std::uint32_t> out(words.begin(), words.begin() + kHeaderWords);
    // Capabilities open the module: the new one goes first.
    if (!hasCapability) {
        out.push_back(instruction(2, kOpCapability));
        out.push_back(kCapabilityDenormFlushToZero);
    }
    out.insert(out.end(), words.begin() + kHeaderWords, words.begin() + afterEntryPoints);
    // Execution modes follow the entry points.
    for (std::uint32_t e : entries) {
        out.push_back(instruction(4, kOpExecutionMode));
        out.push_back(e);
        out.push_back(kExecutionModeDenormFlushToZero);
        out.push_back(32);  // bit width
    }
    out.insert(out.end(), words.begin() + afterEntryPoints, words.end());
    return out;
}

}  // namespace cloth::vk
