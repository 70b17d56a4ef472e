import Compute
import Effects
import Foundation

// `swift run --package-path Examples compute [resource]`: computes for real, through the live
// environment, with the resources bundled with this executable.
let name = CommandLine.arguments.dropFirst().first ?? "number.txt"
var environment = Environment.live
environment.bundle = Bundle.module

do {
  _ = try Interpreter.live(environment: environment).run(compute(file: name, environment: environment))
} catch {
  FileHandle.standardError.write(Data("compute: \(error)\n".utf8))
  exit(1)
}
