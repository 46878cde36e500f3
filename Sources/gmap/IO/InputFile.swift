import Foundation

/// An input file opened for reading by its path (`gmap query --csv FILE`, `gmap where --replay
/// FILE`), with the messages gmap gives for a directory and for a file it cannot open.
enum InputFile {
    /// The file's descriptor. It stays open until the process exits: one per run.
    static func descriptor(_ path: String) throws -> Int32 {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure(message: "cannot read \(path): it is a directory")
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }
}
