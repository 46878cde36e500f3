import Dispatch
import Foundation

/// Runs another program (through Foundation's `Process`, `posix_spawn` underneath) and collects
/// what it printed.
enum ChildProcess {
    /// How a program ended and what it printed.
    struct Output {
        /// The exit status, or the signal's number when `signalled`.
        var status: Int32
        var signalled: Bool
        var stdout: String
        var stderr: String
    }

    /// Why a program could not be run at all.
    enum Failure: Error, CustomStringConvertible {
        case missing(String)
        case notExecutable(String)
        case cannotStart(String, reason: String)

        var description: String {
            switch self {
            case .missing(let path): return "\(path): no such file"
            case .notExecutable(let path): return "\(path) is not an executable file"
            case .cannotStart(let path, let reason): return "cannot run \(path): \(reason)"
            }
        }
    }

    /// Checks that `path` names an executable regular file, before anything is measured.
    static func checkExecutable(_ path: String) throws(Failure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
        guard !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: path) else { throw .notExecutable(path) }
    }

    /// Runs `path` with `arguments` and waits for it; standard input is /dev/null. Both outputs are
    /// read as they come (standard error on another thread), so neither pipe fills up.
    static func run(_ path: String, arguments: [String]) throws(Failure) -> Output {
        try checkExecutable(path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .cannotStart(path, reason: "\(error.localizedDescription)")
        }
        let errors = ErrorText()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                      stdout: String(decoding: printed, as: UTF8.self), stderr: errors.text)
    }

    /// Standard error's bytes, handed from the thread that reads them.
    private final class ErrorText: @unchecked Sendable {
        private var data = Data()
        private let lock = NSLock()

        func set(_ data: Data) {
            lock.lock()
            self.data = data
            lock.unlock()
        }

        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
