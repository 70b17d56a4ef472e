public import Observation

/// A model as a test expects it after a change: what `$0` is in the closure of
/// ``ModelTester/assert(_:fileID:filePath:line:column:)``.
///
/// Reading a property through it gives the value it had before the change (or the value the
/// closure set); setting one states the value expected after it.
///
/// ```swift
/// await tester.assert {
///   $0.count += 1                 // from the count before the change
///   $0.items.append("c")
///   $0.detail?.isSaving = true    // a nested observable child
/// }
/// ```
///
/// A key path names an observed stored property of the model: the tester finds which by its type
/// and value, and confirms it once per key path by setting the property to another value through
/// the key path and back, which runs any `didSet` of the property twice. A statement that reaches
/// an object the model holds in a value (`$0.rows[0].title = …`) writes to it: that is reported.
/// One level of nested child is stated through its parent (`$0.detail?.isSaving`); deeper ones
/// on a tester of their own parent.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@dynamicMemberLookup
public struct ExpectedModel<Root: AnyObject> {
  let root: Root
  let prefix: String
  let log: ModelStatements

  /// A property of the model: its value before the change, or as the closure set it.
  public subscript<Value>(dynamicMember keyPath: KeyPath<Root, Value>) -> Value {
    get {
      guard let path = log.path(of: keyPath, in: root, prefix: prefix, hint: nil),
        let value = log.value(at: path) as? Value
      else { return root[keyPath: keyPath] }
      return value
    }
    set {
      guard let path = log.path(of: keyPath, in: root, prefix: prefix, hint: newValue) else { return }
      log.state(newValue, at: path)
    }
  }

  /// A nested observable child of the model, whose own properties the closure states:
  /// `$0.detail.isSaving = true`.
  public subscript<Child: AnyObject & Observable>(dynamicMember keyPath: KeyPath<Root, Child>) -> ExpectedModel<Child> {
    get {
      let child = root[keyPath: keyPath]
      guard let path = log.path(of: keyPath, in: root, prefix: prefix, hint: nil) else {
        return ExpectedModel<Child>(root: child, prefix: "", log: log)
      }
      let stated = log.value(at: path).flatMap { ModelState.unwrap($0) as? Child } ?? child
      return ExpectedModel<Child>(root: stated, prefix: path + ".", log: log)
    }
    set {
      guard let path = log.path(of: keyPath, in: root, prefix: prefix, hint: newValue.root) else { return }
      if log.value(at: path).flatMap({ ModelState.unwrap($0) as? Child }) !== newValue.root {
        log.state(newValue.root, at: path)
      }
    }
  }

  /// An optional nested observable child of the model: `$0.detail?.isSaving = true` states a
  /// property of the child; `$0.detail = nil` states that the child went away.
  public subscript<Child: AnyObject & Observable>(dynamicMember keyPath: KeyPath<Root, Child?>) -> ExpectedModel<Child>?
  {
    get {
      guard let path = log.path(of: keyPath, in: root, prefix: prefix, hint: nil) else {
        return root[keyPath: keyPath].map { ExpectedModel<Child>(root: $0, prefix: "", log: log) }
      }
      let current = log.value(at: path).map { ModelState.unwrap($0) as? Child } ?? root[keyPath: keyPath]
      return current.map { ExpectedModel<Child>(root: $0, prefix: path + "?.", log: log) }
    }
    set {
      guard let path = log.path(of: keyPath, in: root, prefix: prefix, hint: newValue?.root) else { return }
      let current = log.value(at: path).map { ModelState.unwrap($0) as? Child } ?? root[keyPath: keyPath]
      if current !== newValue?.root {
        log.state(newValue?.root as Child? as Any, at: path)
      }
    }
  }
}
