// Uses of APIs newer than the floor with no guard. Each `[U…]` tag marks one line the check must
// report; ../../../run.py lists the symbol and platforms expected on each.

/// A type, in a signature (ExecutorJob: macOS 14, iOS 17, tvOS 17, watchOS 10).
func takesJob(_ job: consuming ExecutorJob) {}  // [U-type]

/// A method, on an old type (Collection.indices(where:): macOS 15, iOS 18, tvOS 18, watchOS 11).
func bigIndices(_ values: [Int]) {
  _ = values.indices(where: { $0 > 1 })  // [U-method]
}

/// A global (globalConcurrentExecutor: macOS 15, iOS 18, tvOS 18, watchOS 11).
func executor() {
  _ = globalConcurrentExecutor  // [U-global]
}

/// Our own internal function, newer than the floor.
func callsOwnThing() -> Int {
  newOwnThing()  // [U-own]
}

/// Newer on macOS only.
func callsMacOnlyNewer() {
  macOnlyNewer()  // [U-mac-only]
}

/// A guard that covers macOS only: the other platforms are still reported.
func partlyGuarded() {
  if #available(macOS 15.0, *) {
    _ = globalConcurrentExecutor  // [U-partial]
  }
}

/// A guard too old for the API.
func tooOldGuard() {
  if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
    _ = globalConcurrentExecutor  // [U-too-old]
  }
}

/// At the floor exactly (Task.sleep(for:): macOS 13, iOS 16, tvOS 16, watchOS 9): fine.
func atTheFloor() async {
  try? await Task.sleep(for: .milliseconds(1))
}
