import Foundation
import Testing

/// Runs the built `compute` executable, as `swift run --package-path Examples compute` does.
@Suite struct ComputeCommandTests {
  struct Run {
    var status: Int32
    var output: String
    var errorOutput: String
  }

  func runCompute(_ arguments: [String]) throws -> Run {
    // The executable is built beside the tests, in .build/<configuration>/. Depending on the
    // platform and test framework, the test bundle's URL is that folder or a bundle inside it.
    let bundle = Bundle(for: Marker.self).bundleURL
    let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("compute") }
    let executable = try #require(
      candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
      "expected the compute executable at one of \(candidates.map(\.path))"
    )
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus,
      output: String(decoding: outputData, as: UTF8.self),
      errorOutput: String(decoding: errorData, as: UTF8.self)
    )
  }

  @Test func printsTheSquareOfTheBundledNumberAndExitsZero() throws {
    let run = try runCompute([])
    #expect(run.output == "Computed: 15129\n")
    #expect(run.errorOutput == "")
    #expect(run.status == 0)
  }

  @Test func aMissingResourceIsAClearErrorAndANonZeroExit() throws {
    let run = try runCompute(["missing.txt"])
    #expect(run.output == "")
    #expect(
      run.errorOutput
        == "compute: No resource named \"missing.txt\" in the bundle; expected a text file holding a whole number.\n"
    )
    #expect(run.status == 1)
  }
}

private final class Marker {}
