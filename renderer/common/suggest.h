#pragma once
// "Did you mean ...?" for a mistyped name: the closest of the names a command accepts.
#include <string>
#include <vector>

namespace filterlab {

// Levenshtein distance: insertions, deletions and substitutions, each costing 1.
size_t edit_distance(const std::string& a, const std::string& b);

// " (did you mean NAME?)" for the candidate closest to word, if it is at most two edits away and
// nearer than half the word's length (a two-letter word matches nothing by accident); "" otherwise.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace filterlab
