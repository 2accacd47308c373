"""A stand-in desktop notification server for tests (python3-dbus, GLib main loop).

It owns org.freedesktop.Notifications on the session bus of DBUS_SESSION_BUS_ADDRESS and
records every Notify and CloseNotification call as one JSON object per line in RECORD. Its
capabilities are "body" plus "actions" and "body-markup" unless --no-actions / --no-markup.
Tests drive it through its own interface, io.photod.Test.NotificationServer, on the same object:
  Invoke(u id, s key)   emits ActionInvoked(id, key), then closes the notification
                        (NotificationClosed(id, 2)) as most servers do once a button is pressed;
  Dismiss(u id)         emits NotificationClosed(id, 2), as when the owner closes it.
It prints "ready" once it owns the name.

usage: /usr/bin/python3 -c "$(cat notification_server.py)" RECORD [--no-actions] [--no-markup]
"""
import json, sys
import dbus, dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
CONTROL = "io.photod.Test.NotificationServer"
record_path = sys.argv[1]
capabilities = ["body"]
if "--no-actions" not in sys.argv:
    capabilities.append("actions")
if "--no-markup" not in sys.argv:
    capabilities.append("body-markup")


def record(entry):
    with open(record_path, "a") as out:
        out.write(json.dumps(entry) + "\n")


class Server(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.next_id = 1
        self.open = set()

    @dbus.service.method(NAME, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return capabilities

    @dbus.service.method(NAME, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("stand-in", "photod tests", "1.0", "1.2")

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u", sender_keyword="sender")
    def Notify(self, app_name, replaces_id, icon, summary, body, actions, hints, timeout, sender=None):
        if replaces_id and replaces_id in self.open:
            id = int(replaces_id)
        else:
            id = self.next_id
            self.next_id += 1
        self.open.add(id)
        record({"call": "Notify", "id": id, "replaces_id": int(replaces_id), "app_name": str(app_name),
                "summary": str(summary), "body": str(body), "actions": [str(a) for a in actions],
                "expire_timeout": int(timeout), "sender": str(sender)})
        return dbus.UInt32(id)

    @dbus.service.method(NAME, in_signature="u", out_signature="")
    def CloseNotification(self, id):
        record({"call": "CloseNotification", "id": int(id)})
        if id in self.open:
            self.open.discard(id)
            self.NotificationClosed(id, 3)

    @dbus.service.signal(NAME, signature="us")
    def ActionInvoked(self, id, key):
        pass

    @dbus.service.signal(NAME, signature="uu")
    def NotificationClosed(self, id, reason):
        pass

    @dbus.service.method(CONTROL, in_signature="us", out_signature="")
    def Invoke(self, id, key):
        self.ActionInvoked(id, key)
        if id in self.open:
            self.open.discard(id)
            self.NotificationClosed(id, 2)

    @dbus.service.method(CONTROL, in_signature="u", out_signature="")
    def Dismiss(self, id):
        self.open.discard(id)
        self.NotificationClosed(id, 2)


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
server = Server(bus)
name = dbus.service.BusName(NAME, bus, do_not_queue=True)
print("ready", flush=True)
GLib.MainLoop().run()
