fn main() -> std::process::ExitCode {
    kiln::cli::main()
}
