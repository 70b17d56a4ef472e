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

// Availability macros: one name per floor that differs from the package's, saying why it exists.
// Apple's compilers check them; the availability step of `.ci/run` checks them from Linux.
let availabilityMacros = [
  // The engine of exact virtual time: a scope's executor is a `TaskExecutor`, and runs its jobs
  // with `runSynchronously(on:)` (SE-0417).
  "EffectsVirtualTime:macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0",
  // Runtimes whose `Task.sleep` asks the current `SchedulingExecutor` instead of the delay hooks.
  "EffectsSchedulingExecutor:macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4",
]

for target in package.targets {
  var settings = target.swiftSettings ?? []
  for macro in availabilityMacros {
    settings.append(.enableExperimentalFeature("AvailabilityMacro=\(macro)"))
  }
  // SE-0335: spell existential types with `any`, so their cost is visible.
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  // SE-0409: imports are internal unless marked `public`, so no dependency leaks into our API.
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  target.swiftSettings = settings
}
