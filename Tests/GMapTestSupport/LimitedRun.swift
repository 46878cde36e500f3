import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of a program as a child process under an address-space limit (`ulimit -v`), timed: for
/// the tests that feed `gmap` a bomb and assert that it stops quickly in bounded memory. A program
/// that needed more memory than the limit fails to allocate and crashes, so an exit with the
/// expected message shows that it held less.
///
/// Why a limit and not the child's peak resident set: on Linux, `posix_spawn` runs the child in the
/// parent's memory until its `exec`, and `exec` records that memory's high-water mark as the child's
/// `ru_maxrss`, so `wait4` reports the test process's own peak (gigabytes after a dataset test)
/// whenever it is larger than the child's.
package struct LimitedRun {
    /// The exit status (128 + the signal's number when a signal ended it).
    package var status: Int32
    /// Standard output (up to its first megabyte) and standard error, as UTF-8 text.
    package var stdout: String
    package var stderr: String
    /// Wall-clock seconds from spawn to exit.
    package var seconds: Double

    /// Runs `executable` with `arguments` under an address-space limit of `mebibytes` MiB (none when
    /// nil), standard input read from the file `standardInput` (an empty file when nil), its output
    /// written to files in `directory`.
    package static func run(_ executable: URL, _ arguments: [String], mebibytes: Int?, standardInput: String? = nil, directory: URL) throws -> LimitedRun {
        let stdoutPath = directory.appendingPathComponent("limited.stdout").path
        let stderrPath = directory.appendingPathComponent("limited.stderr").path
        let inputPath = standardInput ?? directory.appendingPathComponent("limited.stdin").path
        if standardInput == nil, !FileManager.default.createFile(atPath: inputPath, contents: Data()) {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: inputPath])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var command = [executable.path] + arguments
        if let mebibytes {
            command = ["/bin/sh", "-c", "ulimit -v \(mebibytes * 1024) && exec \"$0\" \"$@\""] + command
        }
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(command[0]): \(spawned)"]) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(started)
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: stdoutPath)).readData(ofLength: 1 << 20)) ?? Data()
        let errors = (try? Data(contentsOf: URL(fileURLWithPath: stderrPath))) ?? Data()
        return LimitedRun(status: exit, stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: errors, as: UTF8.self), seconds: seconds)
    }
}
