import Foundation
import GMapBuilder

/// Files a command writes (maps, GeoJSON, PNG), through ``AtomicFile``, with messages that name the
/// file asked for rather than the temporary file beside it.
enum OutputFile {
    /// Fails, naming the directory, when the directory `path` would be written in does not exist,
    /// is not a directory or cannot be written; called before any long work.
    static func checkDirectory(of path: String) throws {
        let given = (path as NSString).deletingLastPathComponent
        let directory = given.isEmpty ? "." : given
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw CommandFailure(message: "cannot write \(path): directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else {
            throw CommandFailure(message: "cannot write \(path): \(directory) is not a directory")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw CommandFailure(message: "cannot write \(path): directory \(directory) is not writable (\(String(cString: strerror(errno))))")
        }
    }

    /// Writes `bytes` to `path` atomically.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try write(to: path) { write in try write(bytes) }
    }

    /// Writes what `produce` hands over to `path` atomically; errors of `produce` pass through as they
    /// are, and the atomic writer's own ("cannot create /dir/.x.tmp-…: …") become "cannot write PATH: …".
    static func write(to path: String, _ produce: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws {
        do {
            try AtomicFile.write(to: path) { write in
                do {
                    try withoutActuallyEscaping(write) { write in
                        try produce { bytes in
                            do { try write(bytes) } catch { throw WriterFailure(error: error) }
                        }
                    }
                } catch let failure as WriterFailure {
                    throw failure
                } catch {
                    throw ProducerFailure(error: error)
                }
            }
        } catch let failure as ProducerFailure {
            throw failure.error
        } catch let failure as WriterFailure {
            throw CommandFailure(message: "cannot write \(path): \(reason(of: failure.error))")
        } catch let error as BuildError {
            throw CommandFailure(message: "cannot write \(path): \(reason(of: error))")
        }
    }

    /// The system's reason at the end of an atomic-writer message ("No such file or directory").
    private static func reason(of error: any Error) -> String {
        let text = String(describing: error)
        guard let colon = text.range(of: ": ", options: .backwards) else { return text }
        return String(text[colon.upperBound...])
    }

    private struct ProducerFailure: Error { var error: any Error }
    private struct WriterFailure: Error { var error: any Error }
}
