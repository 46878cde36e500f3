import Foundation
import XCTest

/// The base of the test classes that run the `gmap` executable the way users do: each test gets
/// a fresh temporary directory (``temporary``, removed afterwards), and ``run(_:input:environment:)``
/// runs the tool, skipping the test when the executable is not built beside the test bundle.
open class CommandLineTestCase: XCTestCase {
    /// What one run of the tool gave.
    public struct Outcome {
        /// The exit status.
        public var status: Int32
        /// Standard output and standard error, as UTF-8 text.
        public var stdout: String
        public var stderr: String
    }

    /// The `gmap` executable beside the test bundle, or nil when it is not built.
    package static let executable: URL? = {
        let beside = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent().appendingPathComponent("gmap")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : nil
    }()

    /// Whether every test of the class needs the executable, so setUp skips them all without it
    /// (false for classes that also test in-process: only their runs of the tool skip).
    open class var needsExecutable: Bool { true }

    /// This test's own temporary directory.
    package var temporary: URL!

    open override func setUpWithError() throws {
        if Self.needsExecutable { try Self.requireExecutable() }
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("gmap-\(String(describing: Self.self))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    open override func tearDownWithError() throws {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    /// The path of `name` in ``temporary``.
    package func path(_ name: String) -> String { temporary.appendingPathComponent(name).path }

    /// Runs the tool (see ``runGMap(_:input:environment:)``); skips the test when it is not built.
    @discardableResult
    open func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        try Self.requireExecutable()
        return try Self.runGMap(arguments, input: input, environment: environment)
    }

    /// Skips the running test when the executable is not built.
    package static func requireExecutable() throws {
        guard executable != nil else { throw XCTSkip("the gmap executable is not built beside the test bundle (run swift build first)") }
    }

    /// Runs the built `gmap` with `arguments`, feeding `input` to its standard input, with
    /// `environment` added to this process's; every command-line test runs the tool this way.
    /// Runs `gmap` with `arguments` and asserts its exit code (2 unless told) and its exact standard error.
    open func assertFails(_ arguments: [String], input: String? = nil, environment: [String: String] = [:], status: Int32 = 2, stderr: String,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try run(arguments, input: input, environment: environment)
        XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, stderr, "\(arguments)", file: file, line: line)
    }

    package static func runGMap(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
        try standardInput.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile(), err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
