# Compiles GLSL to SPIR-V with glslc at build time. A shader error fails the build.
find_program(GLSLC glslc REQUIRED)

# filterlab_add_shaders(<target> SOURCES <files...> OUTPUT_DIR <dir>)
# Each shaders/<sub>/<name>.<stage> becomes <dir>/<sub>/<name>.<stage>.spv.
# A shader may declare variants, each built from the same source with its own defines:
#   //! variant fp16 OUTPUT_FORMAT=rgba16f STORE_HALF=1
#   //! variant fp32 OUTPUT_FORMAT=rgba32f STORE_HALF=0
# Each becomes <dir>/<sub>/<name>.<stage>.<variant>.spv; a shader with none becomes
# <dir>/<sub>/<name>.<stage>.spv. The run-time compiler (vk/shader_compiler.cpp) reads the same
# lines, so `--shader-source` builds exactly these.
function(filterlab_add_shaders target)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES" ${ARGN})
  set(outputs)
  foreach(source ${ARG_SOURCES})
    file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/${source})
    file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/${source} variant_lines REGEX "^//! variant ")
    # A variant line added, changed or removed changes the outputs: every shader source re-runs the
    # configuration when it changes (the first variant of a shader too).
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${source})
    if(NOT variant_lines)
      set(variant_lines "//! variant")  # one build, no defines, no variant suffix
    endif()
    foreach(line ${variant_lines})
      string(REGEX REPLACE "^//! variant *" "" words "${line}")
      separate_arguments(words UNIX_COMMAND "${words}")
      set(output ${ARG_OUTPUT_DIR}/${rel})
      set(defines)
      if(words)
        list(POP_FRONT words variant)
        string(APPEND output ".${variant}")
        foreach(define ${words})
          list(APPEND defines "-D${define}")
        endforeach()
      endif()
      string(APPEND output ".spv")
      get_filename_component(output_dir ${output} DIRECTORY)
      add_custom_command(
        OUTPUT ${output}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${output_dir}
        COMMAND ${GLSLC} --target-env=vulkan1.3 -O -Werror ${defines}
                -I ${CMAKE_CURRENT_SOURCE_DIR} -MD -MF ${output}.d
                -o ${output} ${CMAKE_CURRENT_SOURCE_DIR}/${source}
        DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${source}
        DEPFILE ${output}.d
        COMMENT "glslc ${rel} ${variant}"
        VERBATIM)
      list(APPEND outputs ${output})
      set(variant)
    endforeach()
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()
