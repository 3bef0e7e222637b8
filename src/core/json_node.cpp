// See json_node.h.
#include "core/json_node.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/error.h"

namespace cloth::detail {

namespace {

std::string fmt(float v) {
    char buf[32];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, ptr);
}

}  // namespace

std::string shortNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string JsonNode::where() const {
    return source_ + ": " + (path_.empty() ? std::string("(top level)") : path_);
}

void JsonNode::fail(const std::string& problem) const {
    throw Error(where() + ": " + problem);
}

const char* JsonNode::typeName() const {
    if (value_.is_number_float()) return "a number";
    if (value_.is_number()) return "an integer";
    if (value_.is_string()) return "a string";
    if (value_.is_boolean()) return "a boolean";
    if (value_.is_array()) return "an array";
    if (value_.is_object()) return "an object";
    return "null";
}

void JsonNode::wrongType(const char* expected) const {
    fail(std::string("expected ") + expected + ", got " + typeName());
}

void JsonNode::allowOnly(std::initializer_list<const char*> keys) const {
    if (!value_.is_object()) wrongType("an object");
    for (const auto& item : value_.items()) {
        bool known = false;
        for (const char* k : keys) known = known || item.key() == k;
        if (known) continue;
        std::string list;
        for (const char* k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
        (*this)[item.key().c_str()].fail("unknown key (expected one of: " + list + ")");
    }
}

bool JsonNode::has(const char* key) const {
    return value_.is_object() && value_.contains(key);
}

JsonNode JsonNode::operator[](const char* key) const {
    if (!value_.is_object()) wrongType("an object");
    std::string child = path_.empty() ? std::string(key) : path_ + "." + key;
    auto it = value_.find(key);
    if (it == value_.end()) fail(std::string("missing key \"") + key + "\"");
    return JsonNode(*it, source_, std::move(child));
}

std::size_t JsonNode::size() const {
    if (!value_.is_array()) wrongType("an array");
    return value_.size();
}

JsonNode JsonNode::operator[](std::size_t i) const {
    return JsonNode(value_.at(i), source_, path_ + "[" + std::to_string(i) + "]");
}

float JsonNode::number() const {
    if (!value_.is_number()) wrongType("a number");
    double d = value_.get<double>();
    if (!std::isfinite(d) || !std::isfinite(static_cast<float>(d))) fail("not a finite number");
    return static_cast<float>(d);
}

std::int64_t JsonNode::integer() const {
    if (value_.is_number_unsigned()) {
        if (value_.get<std::uint64_t>() > std::uint64_t(INT64_MAX)) fail("integer too large");
        return static_cast<std::int64_t>(value_.get<std::uint64_t>());
    }
    if (value_.is_number_integer()) return value_.get<std::int64_t>();
    if (value_.is_number_float()) {
        double d = value_.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15)
            return static_cast<std::int64_t>(d);
    }
    wrongType("an integer");
}

bool JsonNode::boolean() const {
    if (!value_.is_boolean()) wrongType("a boolean (true or false)");
    return value_.get<bool>();
}

std::string JsonNode::string() const {
    if (!value_.is_string()) wrongType("a string");
    return value_.get<std::string>();
}

glm::vec3 JsonNode::vec3() const {
    if (!value_.is_array() || value_.size() != 3) wrongType("an array of 3 numbers");
    return {(*this)[std::size_t(0)].number(), (*this)[1].number(), (*this)[2].number()};
}

float JsonNode::atLeast(float min) const {
    float v = number();
    if (!(v >= min)) fail("must be at least " + fmt(min) + ", got " + fmt(v));
    return v;
}

float JsonNode::positive() const {
    float v = number();
    if (!(v > 0.0f)) fail("must be positive, got " + fmt(v));
    return v;
}

float JsonNode::inUnitRange() const {
    float v = number();
    if (!(v >= 0.0f && v <= 1.0f)) fail("must be in [0, 1], got " + fmt(v));
    return v;
}

float JsonNode::inRange(float lo, float hi, const char* why) const {
    float v = number();
    const double d = value_.get<double>();  // as written: 1e-45, not the float it rounds to
    if (!(d >= lo && d <= hi))
        fail(shortNumber(d) + " " + why + " (allowed: " + shortNumber(lo) + " to " +
             shortNumber(hi) + ")");
    return v;
}

std::int64_t JsonNode::intAtLeast(std::int64_t min, std::int64_t max) const {
    std::int64_t v = integer();
    if (v < min || v > max)
        fail("must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
             std::to_string(v));
    return v;
}

}  // namespace cloth::detail
