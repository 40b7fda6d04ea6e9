// texcv: run geometric operations on image files from the command line.
//   texcv run -i IN -o OUT -p "rotate:angle=30;resize:scale=0.5,interp=area"
//   texcv ops [NAME]     texcv info     texcv --version
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "texcv/runtime.hpp"
#include "tools/texcv/commands.hpp"

namespace {

const char* const kMainFooter = R"(Examples:
  texcv run -i photo.jpg -o small.png -p "resize:scale=0.5,interp=area"
  texcv run -i photos/ -o out/ -p "rotate:angle=30;resize:width=640" --format jpg --quality 90
  texcv batch -i raw/ -o enhanced/ -p "resize:scale=0.5;sharpen" --report run.jsonl
  texcv ops            list the operations and their parameters
  texcv ops resize     one operation
  texcv info           build options and GPUs

Exit codes: 0 all files ok, 1 some files failed, 2 usage or set-up error.
Documentation: docs/cli.md)";

const char* const kRunFooter =
    R"(Pipeline: steps separated by ';', each  name  or  name:key=value,key=value
  A list value (a matrix, a border value) separates its numbers with '|':  m=1|0|10|0|1|20
  The whole pipeline is checked before any file is read; `texcv ops` lists every parameter.

IN and OUT are files or folders. A folder IN is processed file by file (.png, .jpg, .jpeg,
.tif, .tiff; not recursive) into the folder OUT (created when missing), keeping the file names;
--format changes the extension. Existing outputs are kept unless --overwrite; an input is never
overwritten.

Outputs: --quality (JPEG), --png-compression, --tiff-compression and --tiff-level, as texcv
batch's. TIFF is written uncompressed by default, as libvips does (fastest; a 4320x4320 RGB
image is 56 MB); --tiff-compression zstd makes it about half the size for a little more time.

Examples:
  texcv run -i coffee.png -o coffee_small.png -p "resize:scale=0.5"
  texcv run -i in/ -o out/ -p "rotate:angle=30,expand=true;resize:width=512,interp=area"
  texcv run -i in/ -o out/ -p "warp_affine:m=1|0|10|0|1|20,border=reflect" --device cuda
  texcv run -i scan.jpg -o part.png -p "crop:x=10,y=10,width=100,height=80;flip:code=vertical"

Exit codes: 0 all files ok, 1 some files failed (each reported on stderr), 2 usage or set-up
error (bad pipeline, missing input, cuda requested but unavailable).)";

}  // namespace

int main(int argc, char** argv) {
  using namespace texcv::cli;
  CLI::App app{
      "texcv: geometric image operations (resize, warps, rotate, flip, crop) on the CPU or on a "
      "GPU through CUDA textures",
      "texcv"};
  app.set_version_flag("--version", "texcv " + texcv::build_info().version);
  app.require_subcommand(1);
  app.footer(kMainFooter);

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "run a pipeline of operations on image files");
  run_cmd->add_option("-i,--input", run.input, "input image file or folder")->required();
  run_cmd->add_option("-o,--output", run.output, "output image file or folder")->required();
  run_cmd
      ->add_option("-p,--pipeline", run.pipeline,
                   "steps such as \"rotate:angle=30;resize:scale=0.5,interp=area\"")
      ->required();
  run_cmd
      ->add_option("-d,--device", run.device,
                   "cpu, cuda, or auto (cuda when a GPU is usable, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  add_output_options(*run_cmd, run);  // as texcv batch's
  add_limit_options(*run_cmd, run);   // --max-pixels, --max-bytes, as texcv batch's
  run_cmd
      ->add_option("-f,--format", run.format,
                   "output format (default: the output's or input's extension)")
      ->check(CLI::IsMember({"png", "jpg", "jpeg", "tif", "tiff"}));
  run_cmd->add_flag("--overwrite", run.overwrite, "replace existing output files");
  run_cmd->add_flag("--quiet", run.quiet, "no progress lines (errors and failures still shown)");
  run_cmd->footer(kRunFooter);

  BatchOptions batch;
  auto* batch_cmd = add_batch_subcommand(app, batch);

  std::string op_name;
  bool markdown = false;
  auto* ops_cmd = app.add_subcommand("ops", "list the operations and their parameters");
  ops_cmd->add_option("name", op_name, "show only this operation");
  ops_cmd->add_flag("--markdown", markdown, "print markdown tables (docs/cli.md is made this way)");

  auto* info_cmd =
      app.add_subcommand("info", "show the version, build options and GPUs with texture limits");

  // A first word that is neither an option nor a command: CLI11 would only say "A subcommand is
  // required".
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      known = known || sub->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::cerr << "texcv: unknown command '" << argv[1] << "'; expected one of " << names
                << " (texcv --help says what each does)\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (run_cmd->parsed()) return run_command(run);
    if (batch_cmd->parsed()) return batch_command(batch);
    if (ops_cmd->parsed()) return ops_command(op_name, markdown);
    if (info_cmd->parsed()) return info_command();
  } catch (const std::bad_alloc&) {
    std::cerr << "texcv: out of memory before any file was processed (an allocation failed: "
                 "std::bad_alloc)\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "texcv: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitUsage;
}
