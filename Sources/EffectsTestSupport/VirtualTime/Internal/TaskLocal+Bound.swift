/// The runtime's lookup of a task-local value: the address of the value bound to `key` (a
/// `TaskLocal` object) in the current task or thread, or nil when nothing is bound.
///
/// `TaskLocal.get()` calls the same function, but it is not inlinable, so every read of it runs
/// unspecialised and copies its value through the type's value witnesses.
@_silgen_name("swift_task_localValueGet")
func taskLocalValueGet(_ key: UnsafeRawPointer) -> UnsafeRawPointer?

extension TaskLocal {
  /// The value bound to this optional task-local by the innermost `withValue` of this task, or
  /// nil when none is (not the task-local's default value): for a task-local whose default is nil,
  /// as every one in this package, `get()`, specialised for the caller.
  ///
  /// It reads the runtime's storage directly, because test support's hooks read the scope's
  /// task-local on every hop to the main actor (`steps.1e4.effects`). The lookup is the one `get()`
  /// makes, and the storage holds a `Value` by construction: only this `TaskLocal` binds under its
  /// own address. Test support only: `Effects`, which ships in apps, reads with `get()`.
  @inline(__always)
  func bound<Wrapped>() -> Wrapped? where Value == Wrapped? {
    let key = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    guard let storage = taskLocalValueGet(key) else { return nil }
    return storage.assumingMemoryBound(to: Value.self).pointee
  }

  /// `body` applied to the object bound to this optional task-local by the innermost `withValue`
  /// of this task, or nil when none is: ``bound()`` without retaining and releasing the object,
  /// which the binding keeps alive while `body` runs. For test support's hooks, which the runtime
  /// calls on every hop to the main actor (`steps.1e4.effects`).
  @inline(__always)
  func withBoundObject<Object: AnyObject, Result>(
    _ body: (Object) -> Result
  ) -> Result? where Value == Object? {
    let key = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    guard let storage = taskLocalValueGet(key) else { return nil }
    // An optional reference and an optional unmanaged one are the same nullable pointer: loaded
    // as the latter, as a copy of its bits, the memory stays bound to the type that stored it.
    guard let object = storage.load(as: Unmanaged<Object>?.self) else { return nil }
    return object._withUnsafeGuaranteedRef(body)
  }
}
