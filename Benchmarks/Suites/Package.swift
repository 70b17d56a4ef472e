// swift-tools-version: 6.2

import PackageDescription

// One test suite written three ways, run with `swift test` as users run theirs: debug, cases in
// parallel. `python3 Benchmarks/suites.py` from the repository's root builds it, runs each way
// and prints time per case and failures, as ratios (Benchmarks/README.md, "Suites as users run
// them"). The models are shared; each test target is one way of testing them:
// - WithEffects: this library, each case in `withVirtualTime`;
// - WithTestClock: swift-clocks' `TestClock`;
// - WithSerialExecutor: `TestClock` inside swift-concurrency-extras' `withMainSerialExecutor`,
//   its suites `.serialized`, as that requires.
let package = Package(
  name: "Suites",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "swift-effects", path: "../.."),
    .package(url: "https://github.com/pointfreeco/swift-clocks", exact: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", exact: "1.4.3"),
  ],
  targets: [
    .target(name: "Models"),
    .testTarget(
      name: "WithEffects",
      dependencies: [
        "Models",
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
      ]
    ),
    .testTarget(name: "WithTestClock", dependencies: ["Models", .product(name: "Clocks", package: "swift-clocks")]),
    .testTarget(
      name: "WithSerialExecutor",
      dependencies: [
        "Models",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
