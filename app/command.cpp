// The registry's side of the command line: the request, the help assembled from the commands' own
// text, the nearest command or option to a mistyped one, and the exit code of an error.
#include "command.h"

#include "common/suggest.h"
#include "filters/registry.h"
#include "io/input_file.h"
#include "runtime/run_options.h"
#include "vk/shader_compiler.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <regex>

namespace filterlab::app {

const Command* find_command(std::string_view name) {
  for (const Command* c : commands())
    if (c->name == name) return c;
  return nullptr;
}

namespace {

std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const Command* c : commands()) names.emplace_back(c->name);
  return names;
}

std::string join(const std::vector<std::string>& items, const std::string& last_separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? last_separator : ", ") + items[i];
  return out;
}

bool asks_help(const std::string& arg) {
  return arg == "--help" || arg == "-h";
}

// The filter command's own options: a family parameter of the same name is reached with --param.
bool is_filter_option(const std::string& flag) {
  const Command* filter = find_command("filter");
  if (!filter) return false;
  const std::string_view text = filter->options;
  for (size_t at = text.find("  " + flag); at != std::string_view::npos;
       at = text.find("  " + flag, at + 1)) {
    const size_t end = at + 2 + flag.size();
    if (end == text.size() || text[end] == ' ' || text[end] == '\n') return true;
  }
  return false;
}

// The options a command takes: those its help names, the device options, and for the commands that
// take a family's parameters as --KEY VALUE, every family's parameters.
std::vector<std::string> options_of(const Command& command) {
  std::vector<std::string> out = {"--device", "--validation", "--shader-dir", "--shader-source", "--help"};
  const std::string text = std::string(command.synopsis) + std::string(command.options);
  static const std::regex option("--[a-z][a-z0-9-]*");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), option); it != std::sregex_iterator(); ++it)
    out.push_back(it->str());
  if (command.traits & Command::kFamilyParams)
    for (const filters::Family* f : filters::registry().families())
      for (const filters::Param& p : f->params) {
        std::string name = "--" + p.name;
        std::replace(name.begin(), name.end(), '_', '-');
        out.push_back(name);
      }
  return out;
}

}  // namespace

Request read_request(const std::vector<std::string>& argv) {
  if (argv.empty()) return {find_command("run"), {}, std::nullopt};
  const std::string& name = argv[0];
  if (name == "help" || asks_help(name)) {  // filterlab help COMMAND: as COMMAND --help
    if (argv.size() == 1) return {nullptr, {}, ""};
    if (find_command(argv[1])) return {nullptr, {}, argv[1]};
    throw UsageError("help: unknown command '" + argv[1] + "'" + did_you_mean(argv[1], command_names()));
  }
  if (name == "--version") return {};
  const Command* command = find_command(name);
  if (!command)
    throw UsageError("unknown command '" + name + "' (commands: " + join(command_names(), ", ") + ", help)" +
                     did_you_mean(name, command_names()));
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  if (std::any_of(args.begin(), args.end(), asks_help)) return {nullptr, {}, name};
  return {command, args, std::nullopt};
}

Work prepare(const std::vector<std::string>& argv, const std::filesystem::path& exe_dir) {
  Request request = read_request(argv);
  if (request.command) {
    Args args(std::string(request.command->name), request.args, exe_dir);
    return request.command->prepare(args);
  }
  const std::string text = !request.help           ? "filterlab 0.1.0\n"
                           : request.help->empty() ? usage_text()
                                                   : command_help(*request.help);
  return [text] {
    std::cout << text;
    return 0;
  };
}

std::string families_text(bool method_lines) {
  std::string out = "filters (--chain steps, --filter):\n";
  for (const filters::Family* f : filters::registry().families()) {
    out += "  " + f->name + ": " + f->description + "\n    methods: " + f->method_names() +
           (f->default_method.empty() ? "" : " (default " + f->default_method + ")") + "\n";
    if (method_lines)
      for (const filters::Method& m : f->methods)
        out += "      " + m.name + (m.name == f->default_method ? " (default)" : "") +
               (m.exact ? "" : " (not exact)") + ": " + m.description + "\n";
    if (f->tools.evaluation)
      out += "    evaluate --filter " + f->name + ": " + f->tools.evaluation->title +
             " configurations on scene sequences against supersampled references\n";
    if (f->tools.evaluation_baseline)
      out += "    a row of evaluate --filter " + f->tools.evaluation_baseline->evaluated + ": \"" +
             f->tools.evaluation_baseline->label + "\", its defaults\n";
    for (const filters::Param& p : f->params) {
      std::string fallback = p.derived ? p.derived_text : p.fallback.empty() ? "none" : p.fallback;
      std::string line = "    " + p.name + "=" + p.range_text() + (p.unit.empty() ? "" : " " + p.unit) +
                         "  (default " + fallback + ") " + p.help;
      // --KEY VALUE is short for --param KEY=VALUE, except where --KEY is filter's own option.
      if (is_filter_option("--" + p.name))
        line += "; on filter's command line --param " + p.name + "=VALUE (--" + p.name + " is filter's own)";
      if (!p.methods.empty()) {
        line += "; for";
        for (const std::string& m : p.methods) line += " " + m;
      }
      out += line + "\n";
    }
  }
  return out;
}

std::string usage_text() {
  std::string out = "usage: filterlab <command> [options]\n\ncommands:\n";
  for (const Command* c : commands()) out += c->synopsis;
  out += "  help, --help        this text;  --version  the version\n";
  std::vector<std::string> device_takers;
  for (const Command* c : commands()) {
    if (!c->options.empty()) out += "\n" + std::string(c->options);
    if (c->traits & Command::kDeviceOptions) device_takers.emplace_back(c->name);
  }
  out += "\n" + join(device_takers, " and ") +
         " also take --device, --validation, --shader-dir, --shader-source.\n"
         "\nexit codes: 0 ok, 1 runtime error, 2 usage error, 3 no usable Vulkan device,\n"
         "            4 validation messages were reported\n";
  return out + "\n" + families_text(false);
}

std::string command_help(std::string_view name) {
  const Command& c = *find_command(name);
  std::string out = "usage: filterlab " + std::string(c.name) + " [options]\n\n" + std::string(c.synopsis);
  if (!c.options.empty()) out += "\n" + std::string(c.options);
  if (c.traits & Command::kDeviceOptions)
    out += "\n--device, --validation, --shader-dir, --shader-source: the device and the shaders\n";
  if (c.traits & Command::kNamesFilters)
    out += "\nfilters, their methods and parameters: filterlab filters\n";
  return out;
}

std::string unknown_argument_text(std::string_view name, const std::string& argument) {
  const std::string command(name);
  if (argument.empty() || argument[0] != '-')
    return "unexpected argument '" + argument + "' for " + command +
           (command == "filter" ? ": the files are given as --input FILE --output FILE" : "") +
           " (see filterlab " + command + " --help)";
  return "unknown option '" + argument + "' for " + command +
         did_you_mean(argument, options_of(*find_command(name))) + " (see filterlab " + command + " --help)";
}

int exit_code_of(const std::exception& error) {
  auto say = [](const std::string& line) { std::fprintf(stderr, "filterlab: %s\n", line.c_str()); };
  if (const auto* shader = dynamic_cast<const vk::ShaderCompileError*>(&error)) {
    say(shader->line());  // a shader that does not compile or validate: one line
    return 2;
  }
  // Bad input, found before any GPU work: a usage error, an image or filter step that is not there, a
  // file that is not what it should be.
  if (dynamic_cast<const UsageError*>(&error) || dynamic_cast<const runtime::UnknownImageError*>(&error) ||
      dynamic_cast<const filters::ChainError*>(&error) || dynamic_cast<const io::InputError*>(&error)) {
    say(error.what());
    return 2;
  }
  if (dynamic_cast<const vk::NoDeviceError*>(&error)) {
    say(error.what());
    return 3;
  }
  say(std::string("error: ") + error.what());
  return 1;
}

}  // namespace filterlab::app
