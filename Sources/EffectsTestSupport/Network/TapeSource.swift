import Effects
import Foundation

/// Where a tape kept in a target's resources comes from: the build copies it into a resource
/// bundle (`.build/…/App_Profile.resources/Tapes/me.json`, `…/App_Profile.bundle/…`), which is
/// the URL `Bundle.module` hands the tests. Recording there would write into the build, and a
/// report naming it would send the user to a copy. The source is the one file of the package
/// with the same path inside its folder of resources (`Sources/Profile/Tapes/me.json`), and, when
/// the copy exists, the same bytes.
enum TapeSource {
  /// The source of the resource copy `file`, found from the test's file `testFile`: nil when
  /// `file` is not in a resource bundle, or when no single source is found.
  static func of(_ file: URL, testFile: String) -> URL? {
    let components = file.standardizedFileURL.pathComponents
    guard
      let bundle = components.lastIndex(where: { $0.hasSuffix(".resources") || $0.hasSuffix(".bundle") }),
      bundle + 1 < components.count
    else { return nil }
    var inside = Array(components[(bundle + 1)...])
    if inside.starts(with: ["Contents", "Resources"]) { inside.removeFirst(2) }
    guard !inside.isEmpty, let root = packageRoot(above: testFile) else { return nil }
    let key = "\(root.path)\u{0}\(file.path)"
    if let known = cache.withLock({ $0[key] }) { return known }
    let found = search(root, for: inside, like: try? Data(contentsOf: file))
    cache.withLock { $0[key] = found }
    return found
  }

  private static let cache = Locked<[String: URL?]>([:])

  /// The folder of the package or project the test's file is in: the nearest one above it with a
  /// `Package.swift`, an `.xcodeproj` or an `.xcworkspace`.
  private static func packageRoot(above testFile: String) -> URL? {
    guard testFile.hasPrefix("/") else { return nil }
    var folder = URL(fileURLWithPath: testFile).deletingLastPathComponent()
    for _ in 0..<12 {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      if names.contains("Package.swift")
        || names.contains(where: { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") })
      {
        return folder
      }
      let parent = folder.deletingLastPathComponent()
      if parent.path == folder.path { return nil }
      folder = parent
    }
    return nil
  }

  /// The one file under `root` whose path ends in `inside` (with `bytes`, when given), outside
  /// builds and hidden folders; at most 50,000 entries are looked at.
  private static func search(_ root: URL, for inside: [String], like bytes: Data?) -> URL? {
    guard
      let entries = FileManager.default.enumerator(
        at: root,
        includingPropertiesForKeys: [.isDirectoryKey],
        options: [.skipsHiddenFiles, .skipsPackageDescendants]
      )
    else { return nil }
    let skipped: Set<String> = ["DerivedData", "build", "Build", "Pods", "Carthage", "node_modules"]
    var candidates: [URL] = []
    var looked = 0
    while let entry = entries.nextObject() as? URL {
      looked += 1
      if looked > 50_000 { break }
      if skipped.contains(entry.lastPathComponent) || entry.lastPathComponent.hasSuffix(".resources") {
        entries.skipDescendants()
        continue
      }
      guard entry.lastPathComponent == inside.last,
        Array(entry.standardizedFileURL.pathComponents.suffix(inside.count)) == inside
      else { continue }
      candidates.append(entry.standardizedFileURL)
    }
    if let bytes {
      let same = candidates.filter { (try? Data(contentsOf: $0)) == bytes }
      if same.count == 1 { return same[0] }
    }
    return candidates.count == 1 ? candidates[0] : nil
  }
}
