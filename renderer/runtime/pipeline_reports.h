#pragma once
// The pipelines a library built and what the driver's compiler says about each (registers, spills,
// shared memory), as JSON: `bench` writes them per case, `run --timings` per run.
#include "vk/pipeline_library.h"
#include "vk/pipeline_statistics.h"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace filterlab::runtime {

std::vector<vk::PipelineReport> pipeline_reports(vk::PipelineLibrary& library);

// [{"name": shader, "statistics": {statistic: value}}]; a statistic of a pipeline with several
// executables (graphics: vertex and fragment) is keyed "executable: statistic".
nlohmann::json pipelines_json(const std::vector<vk::PipelineReport>& pipelines);

}  // namespace filterlab::runtime
