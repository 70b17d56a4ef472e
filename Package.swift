// swift-tools-version: 6.2

import PackageDescription

let package = Package(
  name: "swift-effects",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  products: [
    .library(name: "Effects", targets: ["Effects"]),
    .library(name: "EffectsTestSupport", targets: ["EffectsTestSupport"]),
  ],
  targets: [
    .target(name: "Effects"),
    .target(name: "EffectsTestSupport", dependencies: ["Effects"]),
    // What both test targets share: app-like keys and effects, and issue helpers. Not a product.
    .target(
      name: "EffectsTestHelpers",
      dependencies: ["Effects", "EffectsTestSupport"],
      path: "Tests/EffectsTestHelpers"
    ),
    .testTarget(name: "EffectsTests", dependencies: ["Effects", "EffectsTestSupport", "EffectsTestHelpers"]),
    .testTarget(
      name: "EffectsTestSupportTests",
      dependencies: ["Effects", "EffectsTestSupport", "EffectsTestHelpers"],
      resources: [.copy("Fixtures")]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  // SE-0335: spell existential types with `any`, so their cost is visible.
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  // SE-0409: imports are internal unless marked `public`, so no dependency leaks into our API.
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  target.swiftSettings = settings
}
