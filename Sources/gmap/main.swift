// gmap: fast offline reverse geocoding. See `gmap help`.
let arguments = Array(CommandLine.arguments.dropFirst())
let status = CommandRunner.run(arguments)
StandardOutput.shared.flush()
SystemCalls.exit(status)
