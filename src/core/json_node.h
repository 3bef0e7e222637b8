// A JSON value together with its path in the document, for strict reading with error messages
// such as "scene.json: cloths[0].material.densty: unknown key". Internal to cloth_core.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

namespace cloth::detail {

// A number for messages: "1e-45", "1000", "0.25" (printf's %g).
std::string shortNumber(double v);

class JsonNode {
  public:
    JsonNode(const nlohmann::json& value, const std::string& source, std::string path = {})
        : value_(value), source_(source), path_(std::move(path)) {}

    const std::string& path() const { return path_; }
    // "<source>: <path>", the prefix of every message about this value.
    std::string where() const;
    // "<where>: <problem>"
    [[noreturn]] void fail(const std::string& problem) const;

    // Objects. `allowOnly` refuses keys not listed (and non-objects).
    void allowOnly(std::initializer_list<const char*> keys) const;
    bool has(const char* key) const;
    JsonNode operator[](const char* key) const;

    // Arrays.
    std::size_t size() const;  // refuses non-arrays
    JsonNode operator[](std::size_t i) const;

    // Scalars, each refusing other types. Numbers must be finite.
    float number() const;
    std::int64_t integer() const;  // a number with an integral value
    bool boolean() const;
    std::string string() const;
    glm::vec3 vec3() const;
    bool isString() const { return value_.is_string(); }
    bool isNumber() const { return value_.is_number(); }
    bool isArray() const { return value_.is_array(); }
    // A number as read, unchecked (infinite when it overflows); only when isNumber().
    double numberAsDouble() const { return value_.get<double>(); }

    // Range checks that fail with the path.
    float atLeast(float min) const;  // number() >= min
    float positive() const;          // number() > 0
    float inUnitRange() const;       // number() in [0, 1]
    std::int64_t intAtLeast(std::int64_t min, std::int64_t max) const;
    // number() in [lo, hi], else "<value> <why> (allowed: lo to hi)".
    float inRange(float lo, float hi, const char* why) const;

  private:
    const char* typeName() const;
    [[noreturn]] void wrongType(const char* expected) const;

    const nlohmann::json& value_;
    const std::string& source_;
    std::string path_;
};

}  // namespace cloth::detail
