# Compiles GLSL to SPIR-V with glslc at build time. A shader error fails the build.
find_program(GLSLC glslc REQUIRED)

# filterlab_add_shaders(<target> SOURCES <files...> OUTPUT_DIR <dir>)
# Each shaders/<sub>/<name>.<stage> becomes <dir>/<sub>/<name>.<stage>.spv.
function(filterlab_add_shaders target)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES" ${ARGN})
  set(outputs)
  foreach(source ${ARG_SOURCES})
    file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/${source})
    set(output ${ARG_OUTPUT_DIR}/${rel}.spv)
    get_filename_component(output_dir ${output} DIRECTORY)
    add_custom_command(
      OUTPUT ${output}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${output_dir}
      COMMAND ${GLSLC} --target-env=vulkan1.3 -O -Werror
              -I ${CMAKE_CURRENT_SOURCE_DIR} -MD -MF ${output}.d
              -o ${output} ${CMAKE_CURRENT_SOURCE_DIR}/${source}
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${source}
      DEPFILE ${output}.d
      COMMENT "glslc ${rel}"
      VERBATIM)
    list(APPEND outputs ${output})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()
