-- The idlelock LÖVE demo: a window, no sound (the demo makes none).
function love.conf(t)
  t.identity = "idlelock-demo"
  t.window.title = "idlelock demo"
  t.window.width = 480
  t.window.height = 320
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
