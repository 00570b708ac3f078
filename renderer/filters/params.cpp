// The parameter schema's one parser (family.h, chain.h): every command, the chain syntax and the
// panel hand raw `key=value` pairs here, and get typed values or a ChainError naming the family,
// the parameter and what it allows.
#include "common/suggest.h"
#include "filters/chain.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace filterlab::filters {

namespace {

std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// Whole text only: "3x" and " 3" are not numbers.
bool parse_int(const std::string& text, int& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

bool parse_double(const std::string& text, double& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

}  // namespace

const char* stage_name(Stage stage) {
  switch (stage) {
    case Stage::Fragment: return "fragment";
    case Stage::Compute: return "compute";
    case Stage::Transfer: return "transfer";
  }
  return "unknown";
}

Param choice_param(std::string name, std::vector<std::string> choices, std::string fallback,
                   std::string help) {
  Param p;
  p.name = std::move(name);
  p.type = ParamType::Choice;
  p.choices = std::move(choices);
  p.fallback = std::move(fallback);
  p.help = std::move(help);
  return p;
}

Param number_param(std::string name, double min, double max, std::string fallback, std::string help) {
  Param p;
  p.name = std::move(name);
  p.type = ParamType::Number;
  p.min = min;
  p.max = max;
  p.fallback = std::move(fallback);
  p.help = std::move(help);
  return p;
}

Param integer_param(std::string name, int min, int max, std::string fallback, std::string help) {
  Param p = number_param(std::move(name), min, max, std::move(fallback), std::move(help));
  p.type = ParamType::Integer;
  return p;
}

const char* input_name(Input input) {
  switch (input) {
    case Input::Depth: return "depth";
    case Input::Motion: return "motion";
    case Input::Camera: return "camera";
    case Input::History: return "history";
    case Input::Jitter: return "jitter";
  }
  return "unknown";
}

bool Param::names_file(const std::string& value) const {
  for (const std::string& extension : file_extensions)
    if (value.size() > extension.size() && value.ends_with(extension)) return true;
  return false;
}

std::string Param::range_text() const {
  switch (type) {
    case ParamType::Integer: return number_text(min) + ".." + number_text(max);
    case ParamType::Number: return number_text(min) + ".." + number_text(max);
    case ParamType::Choice: {
      std::string text = joined(choices, "|");
      for (const std::string& extension : file_extensions) text += "|FILE" + extension;
      return text;
    }
    case ParamType::Region: return "x,y,w,h or WxH+X+Y";
  }
  return "";
}

// ---- ParamValues ------------------------------------------------------------------------------

void ParamValues::set(const std::string& name, Value value, bool given) {
  if (!values_.count(name)) order_.push_back(name);
  values_[name] = std::move(value);
  if (given) given_.insert(name);
}

const ParamValues::Value& ParamValues::at(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw std::out_of_range("no parameter '" + name + "' in this step");
  return it->second;
}

int ParamValues::integer(const std::string& name) const {
  return std::get<int>(at(name));
}

int ParamValues::size() const {
  if (size_name_.empty()) throw std::out_of_range("this step's family has no size parameter");
  return integer(size_name_);
}

double ParamValues::number(const std::string& name) const {
  const Value& v = at(name);
  if (const int* i = std::get_if<int>(&v)) return *i;
  return std::get<double>(v);
}

const std::string& ParamValues::choice(const std::string& name) const {
  return std::get<std::string>(at(name));
}

std::optional<common::Roi> ParamValues::region(const std::string& name) const {
  const Value& v = at(name);
  if (const common::Roi* roi = std::get_if<common::Roi>(&v)) return *roi;
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> ParamValues::given_pairs() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& name : order_) {
    if (!given(name)) continue;
    const Value& v = values_.at(name);
    std::string text;
    if (const int* i = std::get_if<int>(&v)) text = std::to_string(*i);
    else if (const double* d = std::get_if<double>(&v)) text = number_text(*d);
    else if (const std::string* s = std::get_if<std::string>(&v)) text = *s;
    else if (const common::Roi* r = std::get_if<common::Roi>(&v)) text = common::roi_text(*r);
    out.emplace_back(name, text);
  }
  return out;
}

std::string ParamValues::spec() const {
  std::string out;
  for (const auto& [name, text] : given_pairs()) out += (out.empty() ? "" : ":") + name + "=" + text;
  return out;
}

// ---- Family -----------------------------------------------------------------------------------

const Method* Family::find(const std::string& method) const {
  for (const Method& m : methods)
    if (m.name == method) return &m;
  return nullptr;
}

const Method& Family::method(const std::string& name) const {
  if (const Method* m = find(name)) return *m;
  std::vector<std::string> names;
  for (const Method& m : methods) names.push_back(m.name);
  throw ChainError("unknown method '" + name + "' for " + this->name + did_you_mean(name, names) +
                   " (methods: " + method_names() + ")");
}

const Param* Family::param(const std::string& name) const {
  for (const Param& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

const Param* Family::size_param() const {
  for (const Param& p : params)
    if (p.is_size) return &p;
  return nullptr;
}

bool Method::needs(Input input) const {
  return std::find(inputs.begin(), inputs.end(), input) != inputs.end();
}

bool Family::needs(Input input) const {
  return std::find(inputs.begin(), inputs.end(), input) != inputs.end();
}

std::string Family::method_names() const {
  std::vector<std::string> names;
  for (const Method& m : methods) names.push_back(m.name);
  return joined(names, " ");
}

// ---- parsing ----------------------------------------------------------------------------------

ParamValues parse_params(const Family& family, const Method& method, const std::vector<RawParam>& raw) {
  auto fail = [&](const std::string& problem) { throw ChainError(family.name + ": " + problem); };
  ParamValues values;
  if (const Param* size = family.size_param()) values.set_size_param(size->name);
  std::set<std::string> seen;
  for (const auto& [key, text] : raw) {
    const Param* p = family.param(key);
    if (!p) {
      std::vector<std::string> names;
      for (const Param& q : family.params) names.push_back(q.name);
      fail("unknown parameter '" + key + "'" + did_you_mean(key, names) +
           " (parameters: " + joined(names, ", ") + ")");
    }
    if (!seen.insert(key).second) fail(key + " is given twice");
    if (!p->takes(method.name)) {
      std::vector<std::string> takers(p->methods.begin(), p->methods.end());
      fail(key + " is for " + joined(takers, ", ") + ", not " + method.name);
    }
    const std::string wants = key + " wants ";
    switch (p->type) {
      case ParamType::Integer: {
        int v = 0;
        if (!parse_int(text, v) || v < p->min || v > p->max)
          fail(wants + "a whole number in " + p->range_text() + ", got '" + text + "'");
        values.set(key, v, true);
        break;
      }
      case ParamType::Number: {
        double v = 0;
        if (!parse_double(text, v) || !std::isfinite(v))
          fail(wants + "a finite number in " + p->range_text() + ", got '" + text + "'");
        if (v < p->min || v > p->max) fail(wants + "a number in " + p->range_text() + ", got '" + text + "'");
        values.set(key, v, true);
        break;
      }
      case ParamType::Choice:
        if (std::find(p->choices.begin(), p->choices.end(), text) == p->choices.end() && !p->names_file(text))
          fail(wants + p->range_text() + ", got '" + text + "'");
        values.set(key, text, true);
        break;
      case ParamType::Region: {
        const std::optional<common::Roi> roi = common::parse_roi(text);
        if (!roi) fail(wants + "x,y,w,h or WxH+X+Y with w, h >= 1 and x, y >= 0, got '" + text + "'");
        values.set(key, *roi, true);
        break;
      }
    }
  }
  // Defaults, in schema order; derived ones last, from the values they derive from. A parameter the
  // method does not take has its default too, so that the family's code reads every parameter.
  for (const Param& p : family.params) {
    if (seen.count(p.name) || p.derived) continue;
    switch (p.type) {
      case ParamType::Integer: values.set(p.name, std::stoi(p.fallback), false); break;
      case ParamType::Number: values.set(p.name, std::stod(p.fallback), false); break;
      case ParamType::Choice: values.set(p.name, p.fallback, false); break;
      case ParamType::Region: values.set(p.name, std::monostate{}, false); break;
    }
  }
  for (const Param& p : family.params) {
    if (seen.count(p.name) || !p.derived) continue;
    double v = 0;
    try {
      v = p.derived(values);
    } catch (const std::exception& e) {
      fail("no default " + p.name + " for these parameters: " + e.what());
    }
    if (p.type == ParamType::Integer) values.set(p.name, int(v), false);
    else values.set(p.name, v, false);
  }
  if (family.check) family.check(values);
  return values;
}

}  // namespace filterlab::filters
