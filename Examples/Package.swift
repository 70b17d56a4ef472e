// swift-tools-version: 6.2

import PackageDescription

/// The seed articles' case studies, rebuilt with swift-effects: one library per case study, with
/// its tests, and `compute`, the runnable example.
let package = Package(
  name: "Examples",
  // macOS 14 and iOS 17: the Observation module, which SyncUps and NumberFact are built on.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  dependencies: [
    .package(name: "swift-effects", path: ".."),
    // Code nobody here wrote, for proving virtual time exact on it (LiveModels).
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    // Another library that sets the concurrency runtime's hooks (withMainSerialExecutor): proves
    // that a scope reports it and never clears a hook that is not its own (HookNeighbours).
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
  ],
  targets: [
    .target(name: "Compute", dependencies: [.product(name: "Effects", package: "swift-effects")]),
    .executableTarget(
      name: "compute",
      dependencies: ["Compute", .product(name: "Effects", package: "swift-effects")],
      path: "Sources/ComputeCLI",
      resources: [.copy("Resources/number.txt")]
    ),
    .target(name: "Login", dependencies: [.product(name: "Effects", package: "swift-effects")]),
    .testTarget(
      name: "LoginTests",
      dependencies: [
        "Login",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    .target(name: "Analytics", dependencies: [.product(name: "Effects", package: "swift-effects")]),
    .testTarget(
      name: "AnalyticsTests",
      dependencies: [
        "Analytics",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    .target(
      name: "Profile",
      dependencies: [.product(name: "Effects", package: "swift-effects")],
      resources: [.copy("Tapes")]
    ),
    .testTarget(
      name: "ProfileTests",
      dependencies: [
        "Profile",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    .target(name: "Keychain", dependencies: [.product(name: "Effects", package: "swift-effects")]),
    .testTarget(
      name: "KeychainTests",
      dependencies: ["Keychain", .product(name: "Effects", package: "swift-effects")]
    ),
    .target(
      name: "LiveModels",
      dependencies: [
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(name: "Effects", package: "swift-effects"),
      ]
    ),
    .testTarget(
      name: "LiveModelsTests",
      dependencies: [
        "LiveModels",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    .testTarget(
      name: "TimelinesTests",
      dependencies: [
        "LiveModels",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    .target(name: "Notes", dependencies: [.product(name: "Effects", package: "swift-effects")]),
    .testTarget(
      name: "NotesTests",
      dependencies: [
        "Notes",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    // Point-Free's SyncUps, in its vanilla @Observable form, rebuilt on the environment: the
    // ModelTester's proof on models nobody here designed.
    .target(name: "SyncUps", dependencies: [.product(name: "Effects", package: "swift-effects")]),
    .testTarget(
      name: "SyncUpsTests",
      dependencies: [
        "SyncUps",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    // Point-Free's "reliably testing async" number-fact model, rebuilt on the environment's network.
    .target(name: "NumberFact", dependencies: [.product(name: "Effects", package: "swift-effects")]),
    .testTarget(
      name: "NumberFactTests",
      dependencies: [
        "NumberFact",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    // Eight ordering bugs apps have, each buggy and fixed: what exploring a test's orders finds, and replays.
    .target(name: "OrderingBugs", dependencies: [.product(name: "Effects", package: "swift-effects")]),
    .testTarget(
      name: "OrderingBugsTests",
      dependencies: [
        "OrderingBugs",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    .testTarget(
      name: "HookNeighboursTests",
      dependencies: [
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    .testTarget(
      name: "ComputeTests",
      dependencies: [
        "Compute",
        "compute",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  // SE-0335: spell existential types with `any`.
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  // SE-0409: imports are internal unless marked `public`.
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  target.swiftSettings = settings
}
