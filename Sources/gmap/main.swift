// gmap: fast offline reverse geocoding. See `gmap help`.
SystemCalls.endOnBusError()
let arguments = Array(CommandLine.arguments.dropFirst())
var status = CommandRunner.run(arguments)
StandardOutput.shared.flush()
if let error = StandardOutput.shared.failure {
    // The answers did not reach standard output (a full disk, a closed descriptor): a script must be able to tell.
    StandardError.write("gmap: cannot write standard output: \(SystemCalls.message(forError: error))\n")
    status = ExitCode.usage
}
SystemCalls.exit(status)
