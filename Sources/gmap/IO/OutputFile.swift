import Foundation
import GMapBuilder

/// Files a command writes (maps, GeoJSON, PNG), through ``AtomicFile``, with messages that name the
/// file asked for rather than the temporary file beside it.
enum OutputFile {
    /// Checks an output path before any work is done, and gives the path to write: the path
    /// itself, or for a symbolic link the file it points to (written atomically beside it, so the
    /// link stays a link). Refused, with exit 2 and nothing changed:
    /// - a path that is one of the command's `inputs` (the same file, through any path or link:
    ///   the same device and inode), which writing would destroy;
    /// - an existing path that is not a regular file (a directory, a device, a FIFO, a socket),
    ///   which the rename would replace, named by its kind;
    /// - a directory to write in that is missing or not writable (``checkDirectory(of:)``).
    static func prepare(_ path: String, inputs: [String]) throws -> String {
        var target = path
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            target = linkTarget(path)
        }
        if stat(target, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFREG else {
                throw CommandFailure(message: "cannot write \(path): it is \(kindName(kind)), not a regular file; give the path of a file")
            }
            for input in inputs where input != "-" {
                var other = stat()
                if stat(input, &other) == 0, other.st_dev == info.st_dev, other.st_ino == info.st_ino {
                    throw CommandFailure(message: "cannot write \(path): it is the input \(input) (the same file); writing it would destroy the input")
                }
            }
        }
        try checkDirectory(of: target)
        return target
    }

    /// The file a symbolic link points to, as a path (a relative target is taken from the link's
    /// directory); the link itself when it cannot be read.
    private static func linkTarget(_ link: String) -> String {
        guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { return link }
        if destination.hasPrefix("/") { return destination }
        let directory = (link as NSString).deletingLastPathComponent
        return directory.isEmpty ? destination : (directory as NSString).appendingPathComponent(destination)
    }

    /// "a directory", "a character device", … for a `st_mode & S_IFMT`.
    private static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

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
