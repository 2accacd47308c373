// Everything VarlinkCore declares is part of Varlink's own interface: the server and a client
// share the errors, the framing and the trust checks, and importers of Varlink need no second import.
@_exported import VarlinkCore
