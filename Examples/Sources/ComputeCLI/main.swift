import Compute
import Effects
import Foundation

// `swift run --package-path Examples compute [resource]`: computes for real, through the live
// environment, with the resources bundled with this executable, installed once at launch.
let name = CommandLine.arguments.dropFirst().first ?? "number.txt"
var environment = Environment.live
environment.bundle = Bundle.module
Environment.bootstrap(environment)

do {
  _ = try Interpreter.live.perform(compute(file: name))
} catch {
  FileHandle.standardError.write(Data("compute: \(error)\n".utf8))
  exit(1)
}
