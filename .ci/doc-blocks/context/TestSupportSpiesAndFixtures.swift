// Context for Sources/EffectsTestSupport/Documentation.docc/Articles/SpiesAndFixtures.md.
//
// SwiftPM generates `Bundle.module` only for a target that declares resources, and the doc-blocks
// package cannot declare any. This stands in for the one the article's `AppTests` target would
// get: a bundle directory holding `Fixtures/profile.json`, written once to a temporary directory.
import Foundation

extension Bundle {
  static let module: Bundle = {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("doc-blocks-AppTests-\(ProcessInfo.processInfo.processIdentifier).bundle")
    let fixtures = root.appendingPathComponent("Fixtures")
    do {
      try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
      try Data(#"{"age":42,"name":"Blob"}"#.utf8).write(to: fixtures.appendingPathComponent("profile.json"))
    } catch {
      fatalError("cannot write the fixture bundle at \(root.path): \(error)")
    }
    guard let bundle = Bundle(path: root.path) else { fatalError("no bundle at \(root.path)") }
    return bundle
  }()
}
