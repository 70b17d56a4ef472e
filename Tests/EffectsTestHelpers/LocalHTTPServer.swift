package import Effects
package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, for the network contract tests: it serves canned
/// responses, one connection per request (`Connection: close`), and records what it received.
/// Nothing leaves the machine.
///
/// It listens on a port the system picks (bound to port 0), accepts on a thread of its own and
/// answers each connection on another; ``stop()`` wakes the accept loop through a pipe (no
/// timeout, no polling interval), releases held responses, and waits for every thread to end.
///
/// A route can be **held**: the server receives the request, tells ``nextHeldRequest()``, and
/// answers only when the test calls ``releaseHeldResponses()`` — a slow response with no real-time
/// wait.
package final class LocalHTTPServer: @unchecked Sendable {
  /// What the server answers to a method and a path.
  package struct Route: Sendable {
    package var method: String
    package var path: String
    package var response: NetworkResponse
    /// Answer with the body received, instead of the response's own.
    package var echoesBody = false
    /// Hold the response until ``releaseHeldResponses()``.
    package var isHeld = false

    package init(
      method: String,
      path: String,
      response: NetworkResponse,
      echoesBody: Bool = false,
      isHeld: Bool = false
    ) {
      self.method = method
      self.path = path
      self.response = response
      self.echoesBody = echoesBody
      self.isHeld = isHeld
    }
  }

  /// A request as the server read it off the wire.
  package struct Received: Equatable, Sendable {
    package var method: String
    package var path: String
    package var headers: [String: String]
    package var body: Data

    package func value(forHeader name: String) -> String? {
      headerValue(name, in: headers)
    }
  }

  private struct State {
    var received: [Received] = []
    var isReleased = false
    var heldArrivals: [String] = []
    var arrivalWaiters: [CheckedContinuation<String, Never>] = []
    var releaseWaiters: [CheckedContinuation<Void, Never>] = []
  }

  package let port: UInt16
  private let routes: [Route]
  private let listener: Int32
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let state = Locked(State())
  private let threads = DispatchGroup()
  private let holdGate = DispatchSemaphore(value: 0)
  private let heldCount = Locked(0)

  /// A server answering `routes`, already listening.
  package init(routes: [Route]) throws {
    self.routes = routes
    let listener = socket(AF_INET, Self.streamType, 0)
    guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = Self.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 64) == 0 else {
      close(listener)
      throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
    self.listener = listener
    port = Self.localPort(of: listener)
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      close(listener)
      throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
    wakeRead = pipeEnds[0]
    wakeWrite = pipeEnds[1]
    threads.enter()
    let thread = Thread { [self] in
      acceptLoop()
      threads.leave()
    }
    thread.start()
  }

  /// `http://127.0.0.1:<port>`.
  package var baseURL: String {
    "http://127.0.0.1:\(port)"
  }

  /// Every request received, in the order the server finished reading them.
  package var received: [Received] {
    state.withLock { $0.received }
  }

  /// Waits until a request to a held route has arrived, and answers its path.
  package func nextHeldRequest() async -> String {
    await withCheckedContinuation { continuation in
      let arrived: String? = state.withLock { state in
        if !state.heldArrivals.isEmpty { return state.heldArrivals.removeFirst() }
        state.arrivalWaiters.append(continuation)
        return nil
      }
      if let arrived { continuation.resume(returning: arrived) }
    }
  }

  /// Lets every held response go, now and from now on.
  package func releaseHeldResponses() {
    let alreadyReleased = state.withLock { state in
      defer { state.isReleased = true }
      return state.isReleased
    }
    guard !alreadyReleased else { return }
    // One signal for each handler waiting now; later ones see `isReleased`.
    for _ in 0..<heldCount.withLock({ $0 }) { holdGate.signal() }
  }

  /// Stops accepting, releases held responses, and returns once every thread of the server ended.
  package func stop() {
    releaseHeldResponses()
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
    threads.wait()
    close(listener)
    close(wakeRead)
    close(wakeWrite)
  }

  /// A port on 127.0.0.1 that nothing listens on: bound, then closed, so connecting is refused.
  package static func closedPort() throws -> UInt16 {
    let probe = socket(AF_INET, streamType, 0)
    guard probe >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    defer { close(probe) }
    var address = loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    return localPort(of: probe)
  }

  // MARK: - Serving

  private func acceptLoop() {
    while true {
      var fds = [
        pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 2, -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return
      }
      if fds[1].revents != 0 { return }
      guard fds[0].revents != 0 else { continue }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      #if canImport(Darwin)
      var yes: Int32 = 1
      setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
      #endif
      threads.enter()
      let thread = Thread { [self] in
        serve(connection)
        close(connection)
        threads.leave()
      }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    guard let request = read(from: connection) else { return }
    state.withLock { $0.received.append(request) }
    guard let route = routes.first(where: { $0.method == request.method && $0.path == request.path }) else {
      respond(on: connection, NetworkResponse.status(404, "no route for \(request.method) \(request.path)"))
      return
    }
    if route.isHeld { hold(request.path) }
    var response = route.response
    if route.echoesBody { response.body = request.body }
    respond(on: connection, response)
  }

  /// Tells a waiting test that a held request arrived, then waits for the release.
  private func hold(_ path: String) {
    heldCount.withLock { $0 += 1 }
    let (waiter, isReleased): (CheckedContinuation<String, Never>?, Bool) = state.withLock { state in
      if state.arrivalWaiters.isEmpty {
        state.heldArrivals.append(path)
        return (nil, state.isReleased)
      }
      return (state.arrivalWaiters.removeFirst(), state.isReleased)
    }
    waiter?.resume(returning: path)
    if !isReleased { holdGate.wait() }
    heldCount.withLock { $0 -= 1 }
  }

  /// Reads one request: the head up to the empty line, then `Content-Length` bytes of body.
  private func read(from connection: Int32) -> Received? {
    var buffer = Data()
    var chunk = [UInt8](repeating: 0, count: 4096)
    let separator = Data("\r\n\r\n".utf8)
    var headEnd: Range<Data.Index>?
    while headEnd == nil {
      let count = recv(connection, &chunk, chunk.count, 0)
      guard count > 0 else { return nil }
      buffer.append(contentsOf: chunk[0..<count])
      headEnd = buffer.range(of: separator)
    }
    guard let headEnd, let head = String(data: buffer[..<headEnd.lowerBound], encoding: .utf8) else { return nil }
    let lines = head.components(separatedBy: "\r\n")
    let requestLine = lines[0].split(separator: " ")
    guard requestLine.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var received = Received(
      method: String(requestLine[0]),
      path: String(requestLine[1]),
      headers: headers,
      body: Data()
    )
    if received.value(forHeader: "Expect")?.lowercased() == "100-continue" {
      send(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8), on: connection)
    }
    let length = Int(received.value(forHeader: "Content-Length") ?? "0") ?? 0
    var body = Data(buffer[headEnd.upperBound...])
    while body.count < length {
      let count = recv(connection, &chunk, chunk.count, 0)
      guard count > 0 else { return nil }
      body.append(contentsOf: chunk[0..<count])
    }
    received.body = body
    return received
  }

  private func respond(on connection: Int32, _ response: NetworkResponse) {
    var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(response.body.count)\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n"
    send(Data(head.utf8) + response.body, on: connection)
  }

  private func send(_ data: Data, on connection: Int32) {
    data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        #if canImport(Glibc)
        let sent = Glibc.send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        #else
        let sent = Darwin.send(connection, bytes.baseAddress! + offset, bytes.count - offset, 0)
        #endif
        guard sent > 0 else { return }
        offset += sent
      }
    }
  }

  private static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 404: "Not Found"
    case 500: "Internal Server Error"
    default: "Status"
    }
  }

  // MARK: - Sockets

  private static var streamType: Int32 {
    #if canImport(Glibc)
    Int32(SOCK_STREAM.rawValue)
    #else
    SOCK_STREAM
    #endif
  }

  private static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  private static func localPort(of socket: Int32) -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }
}
