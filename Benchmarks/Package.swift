// swift-tools-version: 6.2

import PackageDescription

// This library beside its peers, on ordo-one/benchmark: `swift package --package-path Benchmarks
// benchmark` from the repository's root (Benchmarks/README.md). The peers are pinned to the
// versions the README's table names. Only this package (and `Suites/`, the same test suite
// written three ways and run with `swift test`) has dependencies: the library has none.
// (ordo-one/benchmark's MallocInterposer trait counts allocations; its default RuntimeInterposer
// trait is left off.)
let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "swift-effects", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", exact: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
  ],
  targets: [
    // Every workload, on every side: ours, the peers', the floors.
    .target(
      name: "Workloads",
      dependencies: [
        .product(name: "Effects", package: "swift-effects"),
        .product(name: "EffectsTestSupport", package: "swift-effects"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "Dependencies", package: "swift-dependencies"),
      ]
    ),
    // The benchmark suite, run by `swift package benchmark`.
    .executableTarget(
      name: "Comparisons",
      dependencies: [
        "Workloads",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/Comparisons",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // One workload outside the harness, for valgrind --tool=callgrind.
    .executableTarget(name: "Profile", dependencies: ["Workloads"]),
  ],
  swiftLanguageModes: [.v6]
)
