"""Join a room (issue 30 item 2): the short address the projector shows (/join). Type the six-letter
code from the presenter's screen, any case, spaces allowed; the room opens on the lesson page in
the presenter's language (ui/room_join.py)."""

from ui import room_join, shell

s = shell.page_strings("lesson")
room_join.join_page(s)
